from balance.cli import app

app()
