"""Verifying candidate pairs on two processes (grouping._verify_pairs with workers'
helper process) gives exactly the groups and figures of verifying them in one, the helper
really takes pieces, a comparison that needs the index's line counts is made where the index
is, and a helper that dies or fails costs time, never an answer."""

from __future__ import annotations

import random
from collections import Counter
from contextlib import contextmanager

import owncorpus
import pytest
from support.items import grouping_items

from desktop_dedup.core import forkserver, grouping, sketch, workers
from desktop_dedup.core.errors import HelperGone
from desktop_dedup.core.fingerprint import fingerprint_text
from desktop_dedup.core.grouping import GroupingItem, build_groups
from desktop_dedup.core.service import DedupService

T = 0.75


def _texts() -> list[str]:
    """Real short texts and paragraphs with the copies a folder holds of them: under a
    banner, above a footer, one word changed, rewrapped; and the banner/footer pairs whose
    comparison asks the index which lines are common."""
    rng = random.Random(5)
    out = []
    for text in owncorpus.short_sentences(40) + owncorpus.short_paragraphs(40):
        out += [
            text,
            f"{owncorpus.SHORT_BANNER}\n\n{text}",
            f"{text}\n\n{owncorpus.SHORT_FOOTER}",
            owncorpus.one_word_changed(text, rng.randrange(3)),
            owncorpus.fold(text, 30),
        ]
    return out


def _items(texts: list[str]) -> list[GroupingItem]:
    return grouping_items(texts)


def _line_index(items: list[GroupingItem], asked: list[list[int]]):
    """How many of the items hold each line (as the store counts them), recording each ask."""
    held = Counter(i for it in items for i in sketch.raw_line_ids(it.sketch))

    def line_counts(ids: list[int]) -> dict[int, int]:
        asked.append(list(ids))
        return {i: held[i] for i in ids if i in held}

    return line_counts


def _as_data(groups) -> list:
    return [
        (g.kind, g.reference, [(m.doc_id, m.distance, m.similarity) for m in g.members])
        for g in groups
    ]


@pytest.fixture
def pieces(monkeypatch):
    """Every grouping shares its verification, in pieces of four pairs, and the fork server
    runs, as after a scan."""
    monkeypatch.setattr(grouping, "PARALLEL_MIN_PAIRS", 1)
    monkeypatch.setattr(grouping, "_VERIFY_PIECE", 4)
    forkserver.prestart()


def test_no_helper_before_a_scan_has_started_the_fork_server(monkeypatch):
    """Starting the fork server (the readers' modules, the dictionary: half a second) would
    cost a regroup more than a helper saves: the app regrouping at another threshold as it
    opens verifies in its own process."""
    monkeypatch.setattr(forkserver, "_started", False)
    with workers.helper_process(grouping._verify_piece) as helper:
        assert helper is None
    forkserver.prestart()
    with workers.helper_process(grouping._verify_piece) as helper:
        assert helper is not None


def _counting(answered: list[int], tamper=None):
    """workers.helper_process, counting the answers the helper sent back; ``tamper(helper)``
    may break it once it has started."""

    @contextmanager
    def factory(function):
        with workers.helper_process(function) as helper:
            if helper is not None:
                if tamper is not None:
                    tamper(helper)
                ready, wait = helper.ready_answers, helper.next_answer

                def ready_answers():
                    got = ready()
                    answered.append(len(got))
                    return got

                def next_answer():
                    got = wait()
                    answered.append(1)
                    return got

                helper.ready_answers, helper.next_answer = ready_answers, next_answer
            yield helper

    return factory


@pytest.mark.timeout(120)
def test_two_processes_verify_exactly_as_one(pieces):
    items = _items(_texts())
    asked_one: list[list[int]] = []
    alone = build_groups(items, T, line_counts=_line_index(items, asked_one))
    answered: list[int] = []
    asked_two: list[list[int]] = []
    shared = build_groups(
        items, T, line_counts=_line_index(items, asked_two), helper=_counting(answered)
    )
    assert sum(answered) > 0, "the helper verified nothing"
    assert _as_data(shared) == _as_data(alone)
    assert len(alone) >= 60, len(alone)  # the copies are found: there was work to share
    # the pairs that ask the index are verified here, where the index is
    assert asked_one and asked_two


def test_the_index_is_asked_about_lines_in_batches(monkeypatch):
    """A question to the index costs about half a millisecond however few lines it names: the
    grouping asks about the lines of the documents it decoded since its last question at once
    (grouping._CommonLines), each line once, up to _BATCH_LINES more than a comparison's own,
    and its groups and figures are those of asking about each comparison's own lines."""
    items = _items(_texts())
    batched: list[list[int]] = []
    groups = build_groups(items, T, line_counts=_line_index(items, batched))

    class OnePairAtATime(grouping._CommonLines):
        def __init__(self, sketches, line_counts, decoded=None):
            super().__init__(sketches, line_counts)

    monkeypatch.setattr(grouping, "_CommonLines", OnePairAtATime)
    alone: list[list[int]] = []
    assert _as_data(build_groups(items, T, line_counts=_line_index(items, alone))) == _as_data(
        groups
    )
    flat = [i for ask in batched for i in ask]
    assert len(flat) == len(set(flat))  # each line asked about once
    assert len(alone) >= 20, len(alone)  # many comparisons asked
    assert 3 * len(batched) <= len(alone), (len(batched), len(alone))
    # a question names at most _BATCH_LINES lines besides the comparison's own: none, here
    monkeypatch.undo()
    monkeypatch.setattr(grouping, "_BATCH_LINES", 0)
    capped: list[list[int]] = []
    build_groups(items, T, line_counts=_line_index(items, capped))
    assert capped == alone


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    "tamper",
    [
        pytest.param(lambda helper: helper._proc.kill(), id="killed"),
        # its function fails on every piece: the sketches never reach it
        pytest.param(
            lambda helper: setattr(
                helper,
                "call",
                (lambda call: lambda piece, raw, t: call(piece, None, t))(helper.call),
            ),
            id="failing",
        ),
    ],
)
def test_a_helper_that_dies_or_fails_costs_no_answer(pieces, tamper, caplog):
    items = _items(_texts()[:150])
    alone = build_groups(items, T)
    shared = build_groups(items, T, helper=_counting([], tamper))
    assert _as_data(shared) == _as_data(alone)
    assert "a helper process failed verifying candidate pairs" in caplog.text


@pytest.mark.timeout(180)
def test_the_index_is_grouped_on_two_processes_after_a_scan(pieces, tmp_path, monkeypatch):
    folder = tmp_path / "docs"
    folder.mkdir()
    for k, text in enumerate(_texts()[:100]):
        (folder / f"{k:03d}.txt").write_text(text, encoding="utf-8")
    used: list[int] = []
    original = workers.helper_process

    @contextmanager
    def spy(function):
        with original(function) as helper:
            used.append(helper is not None)
            yield helper

    monkeypatch.setattr(workers, "helper_process", spy)
    with DedupService(tmp_path / "index.sqlite") as service:
        service.add_folder(folder)
        service.scan()
        assert used == [True], used
        shared = [(g.kind, [(m.path, m.similarity) for m in g.members]) for g in service.groups()]
        monkeypatch.setattr(grouping, "PARALLEL_MIN_PAIRS", 10**9)
        service.regroup()
        alone = [(g.kind, [(m.path, m.similarity) for m in g.members]) for g in service.groups()]
    assert shared == alone
    assert len(alone) >= 15, alone


@pytest.mark.timeout(120)
def test_pairs_that_ask_the_index_are_verified_where_it_is(monkeypatch):
    """A note's copy under a banner and its copy above a footer, each added line about as long
    as the note: only how many texts hold each line tells the note from the additions, and
    the helper has no index, so it hands every such pair back. Pieces of one pair: the helper
    is sent the first two before this process takes any."""
    monkeypatch.setattr(grouping, "PARALLEL_MIN_PAIRS", 1)
    monkeypatch.setattr(grouping, "_VERIFY_PIECE", 1)
    forkserver.prestart()
    notes = owncorpus.short_sentences(12)
    texts = [
        t
        for note in notes
        for t in (f"{owncorpus.SHORT_BANNER}\n\n{note}", f"{note}\n\n{owncorpus.SHORT_FOOTER}")
    ]
    items = _items(texts)
    for a in range(0, len(items), 2):  # without the index, no pair is the same
        first, second = (sketch.decode(items[k].sketch) for k in (a, a + 1))
        assert sketch.verified_similarity(first, second, T) < T
    asked: list[list[int]] = []
    answered: list[int] = []
    groups = build_groups(
        items, T, line_counts=_line_index(items, asked), helper=_counting(answered)
    )
    assert sum(answered) >= 2 and asked
    assert sorted(sorted(m.doc_id for m in g.members) for g in groups) == [
        [a, a + 1] for a in range(0, len(items), 2)
    ]


class _IndexlessHelper:
    """A helper in this process that, as a real one without the index does for such pairs,
    answers every pair it is sent with None: "ask the index"."""

    def __init__(self) -> None:
        self.pieces: list[list[tuple[int, int]]] = []
        self._answers: list[list[None]] = []

    def call(self, piece, raw, threshold) -> None:
        self.pieces.append(piece)
        self._answers.append([None] * len(piece))

    def ready_answers(self) -> list:
        out, self._answers = self._answers, []
        return out

    def next_answer(self):
        return self._answers.pop(0)


def test_every_pair_a_helper_hands_back_is_verified_with_the_index(monkeypatch):
    monkeypatch.setattr(grouping, "PARALLEL_MIN_PAIRS", 1)
    monkeypatch.setattr(grouping, "_VERIFY_PIECE", 1)
    notes = owncorpus.short_sentences(12)
    sketches = [
        sketch.decode(fingerprint_text(t).sketch)
        for note in notes
        for t in (f"{owncorpus.SHORT_BANNER}\n\n{note}", f"{note}\n\n{owncorpus.SHORT_FOOTER}")
    ]
    held = Counter(i for sk in sketches for i in sketch.distinct_line_ids(sk))

    def common(ids):
        return {i: held[i] for i in ids if i in held}

    pairs = [(a, a + 1) for a in range(0, len(sketches), 2)]
    helper = _IndexlessHelper()

    @contextmanager
    def factory(function):
        yield helper

    shares = grouping._verify_pairs(
        pairs, sketches.__getitem__, [b""] * len(sketches), T, common, factory
    )
    assert helper.pieces, "the helper was sent nothing"
    assert shares == [
        sketch.verified_similarity(sketches[a], sketches[b], T, common) for a, b in pairs
    ]
    assert min(shares) >= T


class _SilentHelper:
    """A helper in this process that takes every piece and ends before answering any, as a
    helper does that is killed while this process waits for its last answers."""

    def call(self, piece, raw, threshold) -> None:
        pass

    def ready_answers(self) -> list:
        return []

    def next_answer(self):
        raise HelperGone("the helper process ended")


def test_a_helper_that_ends_while_its_answers_are_awaited_costs_no_pair(monkeypatch, caplog):
    monkeypatch.setattr(grouping, "PARALLEL_MIN_PAIRS", 1)
    monkeypatch.setattr(grouping, "_VERIFY_PIECE", 1)
    sketches = [sketch.decode(fingerprint_text(t).sketch) for t in _texts()[:20]]
    pairs = [(a, b) for a in range(len(sketches)) for b in range(a + 1, len(sketches))]

    @contextmanager
    def factory(function):
        yield _SilentHelper()

    shares = grouping._verify_pairs(
        pairs, sketches.__getitem__, [b""] * len(sketches), T, None, factory
    )
    assert shares == [sketch.verified_similarity(sketches[a], sketches[b], T) for a, b in pairs]
    assert "a helper process failed verifying candidate pairs" in caplog.text
