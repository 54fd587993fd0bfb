namespace RpcCompare.Runner.Reporting;

/// <summary>A rendered-agnostic table: the console and Markdown reporters draw the same ones.</summary>
internal sealed record ReportTable(string Suite, string Title, IReadOnlyList<string> Columns, IReadOnlyList<IReadOnlyList<string>> Rows, string? Note = null);
