"""The assistant's servers: its tools over MCP (`fda-explorer mcp`) and the assistant over HTTP (`fda-explorer serve`).

Both sit on the one tool registry (`agent.tools`) and the one `Assistant`; `surface` says what they expose.
Nothing is imported here: the SDKs load only when a server starts (`agent.servers.cli`).
"""

__all__: list[str] = []
