"""Human review of a generated BEIR folder: three annotators, majority vote, SQLite progress.

The web app (``logir.serve.review.app.create_review_app``) needs the ``serve`` dependencies
(fastapi, uvicorn); the store, the vote and the export do not.
"""
