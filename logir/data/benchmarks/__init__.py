"""logir.data.benchmarks"""
