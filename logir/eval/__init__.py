"""logir.eval"""
