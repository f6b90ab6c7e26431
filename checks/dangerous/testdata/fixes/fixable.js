function render(el, html) {
  el.innerHTML = html;
  setTimeout("refresh()", 1000);
  eval(html); // no mechanical fix
}
