"""Test doubles for the synthesis pipelines: one responder that serves every prompt of the
itlr and multiconir pipelines (it reads which JSON shape the prompt asks for), an in-process
client with the ChatClient methods the pipelines use, and small corpora."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from logir.llm import LLMError, LLMOutputError, Usage, extract_json


def first_user(body: dict[str, Any]) -> str:
    return next(m["content"] for m in body["messages"] if m["role"] == "user")


def _between(prompt: str) -> str:
    return prompt.split("<<<\n", 1)[1].split("\n>>>", 1)[0]


def _numbered(prompt: str) -> list[str]:
    return [m.group(2) for m in re.finditer(r"^(\d+)\. (.+)$", prompt, re.M)][:10]


def _topics(prompt: str) -> dict[str, Any]:
    picked: list[str] = []
    for w in re.findall(r"[a-z]{6,}", _between(prompt).lower()):
        if all(w not in p and p not in w for p in picked):
            picked.append(w)
        if len(picked) == 3:
            break
    return {"subject": "natural history", "topics": picked}


def _passages(prompt: str) -> dict[str, Any]:
    form = re.search(r"explicitly:\n\s+(.+)\n", prompt).group(1)  # type: ignore[union-attr]
    words = re.findall(r'"([^"]+)"', form)
    passages = []
    for m in re.finditer(r"^Passage (\d+): (.+)$", prompt, re.M):
        covers: list[str] = []
        for part in m.group(2).split("; "):
            if part.startswith("covers "):
                covers = re.findall(r'"([^"]+)"', part)
        about = " and ".join(covers) if covers else "something else entirely"
        passages.append(
            f"Passage {m.group(1)} is a field note about {about}. "
            f"It explains {about} with care for readers."
        )
    return {"question": "texts about " + ", ".join(words), "passages": passages}


def _sentences(prompt: str) -> dict[str, Any]:
    return {"sentences": re.split(r"(?<=\.)\s+", _between(prompt))[:10]}


def _queries(prompt: str) -> dict[str, Any]:
    conds = [" ".join(s.split()[:8]).rstrip(".") for s in _numbered(prompt)]
    return {
        "conditions": conds,
        "descriptive": [
            "I am looking for a document where " + "; ".join(conds[:k]).lower()
            for k in range(1, 11)
        ],
    }


def _rewrites(prompt: str) -> dict[str, Any]:
    return {"rewrites": ["Not so: " + line.split(" || ")[0] for line in _numbered(prompt)]}


def synth_answer(body: dict[str, Any]) -> str:
    """The assistant content for any itlr / multiconir prompt in `body`."""
    prompt = first_user(body)
    if '"still_satisfied"' in prompt:
        answer: dict[str, Any] = {"still_satisfied": [False] * 10}
    elif '"rewrites"' in prompt:
        answer = _rewrites(prompt)
    elif '"descriptive"' in prompt:
        answer = _queries(prompt)
    elif '"sentences"' in prompt:
        answer = _sentences(prompt)
    elif '"passages"' in prompt:
        answer = _passages(prompt)
    elif '"topics"' in prompt:
        answer = _topics(prompt)
    else:
        raise AssertionError(f"unexpected prompt: {prompt[:200]}")
    return "```json\n" + json.dumps(answer) + "\n```"


class StubClient:
    """In-process stand-in for ChatClient: same chat_json contract, answers from `responder`."""

    def __init__(
        self,
        responder: Callable[[dict[str, Any]], str] = synth_answer,
        concurrency: int = 1,
    ) -> None:
        self.responder = responder
        self.config = SimpleNamespace(
            concurrency=concurrency, url="stub://chat", model="stub", base_url="stub://"
        )
        self.workers = concurrency
        self.usage = Usage()
        self.bodies: list[dict[str, Any]] = []

    def chat(self, messages: list[dict[str, str]], **kwargs: Any) -> str:
        body = {"model": "stub", "messages": list(messages), **kwargs}
        self.bodies.append(body)
        answer = self.responder(body)
        self.usage.add(requests=1, prompt_tokens=10, completion_tokens=len(answer.split()))
        return answer

    def chat_json(
        self,
        messages: list[dict[str, str]],
        *,
        validate: Any = None,
        max_repairs: int = 2,
        **kw: Any,
    ) -> Any:
        conversation = list(messages)
        problems = []
        for _ in range(max_repairs + 1):
            answer = self.chat(
                conversation, schema=kw.get("schema"), max_tokens=kw.get("max_tokens")
            )
            try:
                value = extract_json(answer)
                return validate(value) if validate is not None else value
            except ValueError as exc:
                problems.append(str(exc))
            conversation += [
                {"role": "assistant", "content": answer},
                {"role": "user", "content": f"fix: {problems[-1]}"},
            ]
        raise LLMOutputError("; ".join(problems))


def down(body: dict[str, Any]) -> str:
    raise LLMError("stub://chat: status 500 after 1 attempt")


ANIMALS = ["otter", "falcon", "badger", "heron", "lynx", "marten", "walrus", "ibex"]
PLACES = ["estuary", "moorland", "canyon", "lagoon", "glacier", "savanna", "tundra", "delta"]


def itlr_passages(n: int = 6) -> list[dict[str, str]]:
    """Short passages of 20+ words with distinct long words for topics."""
    rows = []
    for i in range(n):
        a, p, q = ANIMALS[i % 8], PLACES[i % 8], PLACES[(i + 3) % 8]
        rows.append(
            {
                "_id": f"seed{i}",
                "title": f"{a.title()} survey",
                "text": f"Researchers tracked {a} populations across the {p} and compared "
                f"them with colonies near the {q}, noting breeding success, migration "
                f"timing and feeding behaviour over several seasons.",
            }
        )
    return rows


def multiconir_documents(n: int = 4) -> list[dict[str, str]]:
    """Documents of twelve distinct sentences each (the pipeline needs ten)."""
    rows = []
    for i in range(n):
        a = ANIMALS[i % 8]
        sentences = [
            f"The {a} study number {i} recorded fact {j} about the {PLACES[j % 8]} habitat "
            f"in season {2000 + 10 * i + j}."
            for j in range(12)
        ]
        rows.append({"_id": f"case{i}", "text": " ".join(sentences)})
    rows.append({"_id": "short", "text": "Too short to use. Only two sentences here."})
    return rows


def write_jsonl(path: Path, rows: list[dict[str, str]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path
