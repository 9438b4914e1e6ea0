print("modalwatch: not built yet")
