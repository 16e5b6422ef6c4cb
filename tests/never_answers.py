"""An ASGI application whose sockets' handshakes are never answered (a worker too busy
to reach them), for tests/test_serve.py."""


async def app(scope, receive, send):
    if scope["type"] != "websocket":
        return
    while (await receive())["type"] != "websocket.disconnect":
        pass
