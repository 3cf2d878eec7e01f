"""Saved answers: the person's own answer to a question, keyed by the question (label, section,
options), with the question's embedding beside it for the similar-question search."""

from __future__ import annotations

from typing import Any

import apsw

from bridge.clock import now_iso
from bridge.protocol.errors import ErrorCode, RelayError
from bridge.store.crypto import Cipher, pack, unpack
from bridge.store.db import query, scalar
from bridge.store.util import dumps, loads

ORIGINS = ("saved", "submitted", "edited")
# The columns sealed when encryption is on (the question stays plain: it is the search key).
SEALED = ("value", "answer_values")


def context(qkey: str, column: str) -> str:
    """What a sealed value is bound to: its row (by its question key) and its column."""
    return f"saved_answers:{qkey}" if column == SEALED[0] else f"saved_answers:{qkey}:{column}"


def _opened(row: dict[str, Any], cipher: Cipher | None) -> dict[str, Any]:
    """The row with its sealed columns opened (None where no key is at hand)."""
    sealed = int(row.get("sealed") or 0)
    return {**row, **{c: unpack(cipher, row[c], sealed, context(row["qkey"], c)) for c in SEALED}}


def _sealed(cipher: Cipher | None, qkey: str, value: str, values: list[str]
            ) -> tuple[str, str, int]:
    body, flag = pack(cipher, value, context(qkey, "value"))
    listed, _ = pack(cipher, dumps(values), context(qkey, "answer_values"))
    return body, listed, flag


def _row(raw: dict[str, Any], cipher: Cipher | None) -> dict[str, Any]:
    row = _opened(raw, cipher)
    return {
        "answer_id": row["id"],
        "question": row["question"],
        "section": row["section"],
        "options": loads(row["options"], []),
        "widget": row["widget"],
        "lang": row["lang"],
        "value": row["value"],
        "values": loads(row["answer_values"], []) if row["answer_values"] is not None else [],
        "origin": row["origin"],
        "application_id": row["application_id"],
        "self_id": bool(row["self_id"]),
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
        "used_at": row["used_at"],
        "used_count": row["used_count"],
        "encrypted": bool(raw.get("sealed")),
    }


def put(
    conn: apsw.Connection,
    *,
    qkey: str,  # bridge.learn.learning.answer_key: one saved answer per question
    question: str,
    section: str,
    options: list[str],
    widget: str,
    lang: str,
    value: str,
    values: list[str],
    origin: str,
    self_id: bool,
    application_id: int | None = None,
    cipher: Cipher | None = None,
) -> tuple[int, bool]:
    """Insert or replace the answer to this question; returns (answer id, replaced)."""
    key = qkey
    now = now_iso()
    body, listed, sealed = _sealed(cipher, key, value, values)
    found = scalar(conn, "SELECT id FROM saved_answers WHERE qkey = ?", (key,))
    if found is not None:
        conn.execute(
            "UPDATE saved_answers SET question = ?, widget = ?, lang = ?, value = ?,"
            " answer_values = ?, sealed = ?, origin = ?, self_id = ?, application_id = ?,"
            " updated_at = ? WHERE id = ?",
            (question, widget, lang, body, listed, sealed, origin, int(self_id), application_id,
             now, found),
        )
        conn.execute("DELETE FROM saved_answer_vectors WHERE answer_id = ?", (found,))
        return int(found), True
    conn.execute(
        "INSERT INTO saved_answers(qkey, question, section, options, widget, lang, value,"
        " answer_values, sealed, origin, application_id, self_id, created_at, updated_at)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (key, question, section, dumps(options), widget, lang, body, listed, sealed, origin,
         application_id, int(self_id), now, now),
    )
    return conn.last_insert_rowid(), False


def get(conn: apsw.Connection, answer_id: int, cipher: Cipher | None = None) -> dict[str, Any]:
    rows = query(conn, "SELECT * FROM saved_answers WHERE id = ?", (answer_id,))
    if not rows:
        raise RelayError(ErrorCode.NOT_FOUND, f"no saved answer {answer_id}")
    return _row(rows[0], cipher)


def listing(conn: apsw.Connection, text: str = "", limit: int = 100,
            cipher: Cipher | None = None) -> list[dict[str, Any]]:
    """Newest first; `text` keeps those whose question or value contains it (any case)."""
    rows = query(conn, "SELECT * FROM saved_answers ORDER BY updated_at DESC, id DESC")
    wanted = text.casefold()
    out = [_row(r, cipher) for r in rows]
    out = [a for a in out if not wanted or wanted in a["question"].casefold()
           or wanted in (a["value"] or "").casefold()]
    return out[:limit]


def update_value(conn: apsw.Connection, answer_id: int, value: str,
                 cipher: Cipher | None = None) -> dict[str, Any]:
    qkey = str(scalar(conn, "SELECT qkey FROM saved_answers WHERE id = ?", (answer_id,)) or "")
    get(conn, answer_id, cipher)
    body, listed, sealed = _sealed(cipher, qkey, value, [])
    conn.execute(
        "UPDATE saved_answers SET value = ?, answer_values = ?, sealed = ?, updated_at = ?"
        " WHERE id = ?",
        (body, listed, sealed, now_iso(), answer_id),
    )
    return get(conn, answer_id, cipher)


def delete(conn: apsw.Connection, answer_id: int) -> bool:
    conn.execute("DELETE FROM saved_answers WHERE id = ?", (answer_id,))
    return conn.changes() > 0


def mark_used(conn: apsw.Connection, answer_ids: list[int]) -> None:
    now = now_iso()
    for answer_id in answer_ids:
        conn.execute(
            "UPDATE saved_answers SET used_at = ?, used_count = used_count + 1 WHERE id = ?",
            (now, answer_id),
        )


def without_vector(conn: apsw.Connection, model: str) -> list[tuple[int, str]]:
    """(id, question) of answers whose embedding is missing or from another model."""
    rows = query(
        conn,
        "SELECT a.id, a.question FROM saved_answers a LEFT JOIN saved_answer_vectors v"
        " ON v.answer_id = a.id WHERE v.answer_id IS NULL OR v.model != ?",
        (model,),
    )
    return [(int(r["id"]), str(r["question"])) for r in rows]


def put_vector(conn: apsw.Connection, answer_id: int, model: str, embedding: bytes) -> None:
    conn.execute(
        "INSERT INTO saved_answer_vectors(answer_id, model, embedding) VALUES (?,?,?)"
        " ON CONFLICT(answer_id) DO UPDATE SET model = excluded.model,"
        " embedding = excluded.embedding",
        (answer_id, model, embedding),
    )


def nearest(
    conn: apsw.Connection, embedding: bytes, model: str, limit: int = 5,
    cipher: Cipher | None = None,
) -> list[tuple[dict[str, Any], float]]:
    """The saved answers whose question is closest to the embedding, with cosine similarity.
    Needs sqlite-vec loaded into the connection."""
    rows = query(
        conn,
        "SELECT a.*, vec_distance_cosine(v.embedding, ?) AS distance FROM saved_answer_vectors v"
        " JOIN saved_answers a ON a.id = v.answer_id WHERE v.model = ?"
        " ORDER BY distance LIMIT ?",
        (embedding, model, limit),
    )
    return [(_row(r, cipher), 1.0 - float(r["distance"])) for r in rows]
