"""The Qt models: pytest-qt's model tester, lazy paging, sorting and filtering via the service."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QTableView

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from bench_gui import build_database  # noqa: E402

from desktop_dedup.core.service import DedupService  # noqa: E402
from desktop_dedup.gui.models import GroupsModel, MembersModel, RowsModel  # noqa: E402
from desktop_dedup.gui.models.groups import COL_FILES, COL_REFERENCE, GROUP_ID_ROLE  # noqa: E402
from desktop_dedup.gui.models.members import COL_NAME, COL_SIMILARITY  # noqa: E402

N_GROUPS = 1_000


@pytest.fixture(scope="module")
def big_db(tmp_path_factory):
    path = tmp_path_factory.mktemp("models") / "groups.sqlite3"
    build_database(path, N_GROUPS)
    return path


@pytest.fixture
def service(big_db):
    svc = DedupService(big_db)
    yield svc
    svc.close()


def test_groups_model_passes_model_tester(qtmodeltester, service):
    model = GroupsModel(service, page_size=50)
    model.reload()
    qtmodeltester.check(model)  # also pages in more rows through fetchMore
    assert model.rowCount() == model.loaded
    assert model.loaded % 50 == 0 and 50 <= model.loaded <= N_GROUPS


def test_members_model_passes_model_tester(qtmodeltester, service):
    group = service.group(service.group_page(0, 1)[0].id)
    model = MembersModel(service, set())
    model.set_group(group)
    qtmodeltester.check(model)
    assert model.rowCount() == len(group.members)
    reference_row = next(i for i, m in enumerate(group.members) if m.is_reference)
    other_row = next(i for i, m in enumerate(group.members) if not m.is_reference)
    ref_index = model.index(reference_row, COL_NAME)
    other_index = model.index(other_row, COL_NAME)
    # The reference can be marked too (issue 9: "keep this one" marks it); a whole group marked
    # is caught by the warning before removal.
    assert model.flags(ref_index) & Qt.ItemFlag.ItemIsUserCheckable
    assert model.data(ref_index, Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked
    assert model.flags(other_index) & Qt.ItemFlag.ItemIsUserCheckable
    assert model.data(model.index(reference_row, COL_SIMILARITY)) == "reference"
    # Checking persists through the service, for the reference too.
    assert model.setData(other_index, Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    assert service.marked_ids() == {group.members[other_row].doc_id}
    assert model.setData(ref_index, Qt.CheckState.Checked, Qt.ItemDataRole.CheckStateRole)
    assert model.setData(other_index, Qt.CheckState.Unchecked, Qt.ItemDataRole.CheckStateRole)
    assert service.marked_ids() == {group.members[reference_row].doc_id}
    assert model.setData(ref_index, Qt.CheckState.Unchecked, Qt.ItemDataRole.CheckStateRole)
    assert service.marked_ids() == set()
    qtmodeltester.check(model)


def test_rows_model_passes_model_tester(qtmodeltester):
    model = RowsModel(["A", "B"])
    model.set_rows([("1", "2"), ("3", "4")], ["x", "y"])
    qtmodeltester.check(model)
    assert model.payload(1) == "y"


def test_lazy_paging_fetches_as_the_view_scrolls(qtbot, service):
    model = GroupsModel(service, page_size=100)
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    model.reload()
    view.resize(600, 400)
    view.show()
    assert model.total == N_GROUPS
    assert model.loaded == 100
    view.scrollToBottom()
    qtbot.waitUntil(lambda: model.loaded > 100)
    model.ensure_loaded(N_GROUPS - 1)
    assert model.loaded == N_GROUPS
    assert not model.canFetchMore(QModelIndex())
    ids = [model.data(model.index(r, 0), GROUP_ID_ROLE) for r in range(model.rowCount())]
    assert len(set(ids)) == N_GROUPS  # pages neither overlap nor skip


def test_sort_and_filter_go_through_the_service(service):
    model = GroupsModel(service, page_size=100)
    model.reload()
    model.sort(COL_REFERENCE, Qt.SortOrder.AscendingOrder)
    paths = [model.summary(r).reference_path for r in range(model.rowCount())]
    assert paths == sorted(paths)
    assert paths[0] == min(
        g.reference_path for g in service.group_page(0, N_GROUPS, sort="path", descending=False)
    )
    model.sort(COL_FILES, Qt.SortOrder.DescendingOrder)
    assert model.sort_column == COL_FILES

    assert model.set_filter("document-000123")
    assert model.total == 1
    assert model.data(model.index(0, COL_REFERENCE)).endswith("document-000123.txt")

    errors = []
    model.filterError.connect(errors.append)
    assert model.set_filter(r"document-00012[0-9]\.txt$", regex=True)
    assert model.total == 10
    assert not model.set_filter("([unclosed", regex=True)
    assert errors
    assert model.total == 10  # the previous filter stays in force


def test_close_model_passes_model_tester_and_offers_no_box_in_a_reference_folder(
    qtmodeltester, tmp_path
):
    """The list of files close to a group: pytest-qt's model tester; a checkbox on each, but
    not on one in a reference folder (never marked, as a member there)."""
    from support.close_family import write_close_family

    from desktop_dedup.gui.models.close import CLOSE_NAME, CloseModel

    write_close_family(tmp_path / "docs")
    with DedupService(tmp_path / "index.sqlite") as svc:
        svc.add_folder(tmp_path / "docs")
        svc.scan()
        (group,) = svc.groups()
        model = CloseModel(svc)
        model.set_group(group)
        qtmodeltester.check(model)
        assert model.rowCount() == 1
        assert model.flags(model.index(0, CLOSE_NAME)) & Qt.ItemFlag.ItemIsUserCheckable
        assert model.toggle(0) and svc.marked_ids() == {group.close[0].doc_id}
        svc.clear_marks()
        svc.set_folder_reference(str(tmp_path / "docs"), True)
        (group,) = svc.groups()
        model.set_group(group)
        assert group.close[0].in_reference_folder
        assert not model.flags(model.index(0, CLOSE_NAME)) & Qt.ItemFlag.ItemIsUserCheckable
        assert model.data(model.index(0, CLOSE_NAME), Qt.ItemDataRole.CheckStateRole) is None
        assert not model.toggle(0) and svc.marked_ids() == set()
