# Prints every failed test of one TRX file: its name, then the first lines of its message and
# stack trace, indented. CI keeps only the end of the run's output, and a failure that happens
# once in many runs must be diagnosable from that alone, not only named.
# Usage: awk -v project=NAME -f .ci/failed-tests.awk FILE.trx
function unescape(s) {
  gsub(/&#xD;/, "", s); gsub(/&#xA;/, "\n", s)
  gsub(/&quot;/, "\"", s); gsub(/&apos;/, "'", s); gsub(/&lt;/, "<", s); gsub(/&gt;/, ">", s)
  gsub(/&amp;/, "\\&", s)
  return s
}
# The text of <tag>...</tag> in a result's XML, or "" when it has none.
function element(xml, tag,    start, end) {
  start = index(xml, "<" tag ">")
  if (start == 0) return ""
  xml = substr(xml, start + length(tag) + 2)
  end = index(xml, "</" tag ">")
  return end == 0 ? xml : substr(xml, 1, end - 1)
}
function report(name, xml,    text, lines, n, i) {
  print "failed: " unescape(name) " (" project ")"
  text = unescape(element(xml, "Message")) "\n" unescape(element(xml, "StackTrace"))
  n = split(text, lines, "\n")
  for (i = 1; i <= n && i <= 30; i++) if (lines[i] != "") print "    " lines[i]
  if (n > 30) print "    ... (" n - 30 " more lines in the TRX file)"
}
# The name from the result's own tag, not from the text after it (a test's output may contain anything).
/<UnitTestResult / {
  collecting = ($0 ~ /outcome="Failed"/); xml = ""
  name = $0; sub(/.*<UnitTestResult [^>]* testName="/, "", name); sub(/".*/, "", name)
}
collecting { xml = xml $0 "\n" }
collecting && (/<\/UnitTestResult>/ || /<UnitTestResult [^>]*\/>/) { report(name, xml); collecting = 0 }
