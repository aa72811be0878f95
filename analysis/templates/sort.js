// Sortable tables: click a header to sort by that column, click again to reverse. A cell with a
// data-sort number sorts by it (numbers before text); other cells sort as text.
(function () {
  function key(row, column) {
    var cell = row.cells[column];
    if (!cell) return "";
    var number = cell.getAttribute("data-sort");
    return number === null ? cell.textContent.trim() : parseFloat(number);
  }
  function compare(a, b) {
    var an = typeof a === "number", bn = typeof b === "number";
    if (an && bn) return a - b;
    if (an !== bn) return an ? -1 : 1;
    return String(a).localeCompare(String(b), undefined, {numeric: true});
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    var headers = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(headers, function (header, column) {
      header.addEventListener("click", function () {
        var ascending = header.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(headers, function (h) { h.removeAttribute("aria-sort"); });
        header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var order = compare(key(a, column), key(b, column));
          return ascending ? order : -order;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      });
    });
  });
})();
