"""LLM Game Arena: the Gradio app (placeholder page until the browser UI lands)."""

from __future__ import annotations

import os

import gradio as gr

from games.registry import all_games


def build_app() -> gr.Blocks:
    with gr.Blocks(title="LLM Game Arena") as app:
        gr.Markdown("# LLM Game Arena\nGames available: " +
                    ", ".join(spec.title for spec in all_games()))
    return app


demo = build_app()

if __name__ == "__main__":
    demo.launch(server_name=os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"),
                server_port=int(os.environ.get("GRADIO_SERVER_PORT", "7860")))
