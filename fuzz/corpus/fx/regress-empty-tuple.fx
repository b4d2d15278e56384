graph():
    return ()
