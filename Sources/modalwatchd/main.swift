print("modalwatchd: not built yet")
