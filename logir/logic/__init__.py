"""logir.logic"""
