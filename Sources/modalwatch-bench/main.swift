print("modalwatch-bench: not built yet")
