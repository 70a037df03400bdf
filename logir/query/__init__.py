"""logir.query"""
