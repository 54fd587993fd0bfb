using System.Text.Json;
using RpcCompare.Perf.Reporting.Dashboard;
using RpcCompare.Testing;

namespace RpcCompare.Runner.Tests;

/// <summary>One runner invocation for a test class: its exit code, console, reports and report.json.</summary>
public abstract class RunnerRun : IAsyncLifetime
{
    private readonly TemporaryDirectory _output = new();
    private JsonDocument? _document;

    public int ExitCode { get; private set; }

    public string Console { get; private set; } = "";

    public string Directory { get; private set; } = "";

    public JsonElement Root => _document!.RootElement;

    public IReadOnlyList<JsonElement> Measurements => [.. Root.GetProperty("measurements").EnumerateArray()];

    public IReadOnlyList<JsonElement> Refused => [.. Root.GetProperty("refused").EnumerateArray()];

    /// <summary>The run as the dashboard reads it back from its report.json: what the written report gives results/index.html.</summary>
    public RunSummary DashboardEntry => RunCatalog.Read(_output.FullPath).Runs.Single();

    /// <summary>The runner's arguments; --output is added.</summary>
    protected abstract string[] Arguments { get; }

    public async Task InitializeAsync()
    {
        using var writer = new StringWriter();
        var console = PlainConsole.Into(writer);
        ExitCode = await RunnerCommand.Create(console).Parse([.. Arguments, "--output", _output.FullPath]).InvokeAsync()
            .WaitAsync(TimeSpan.FromMinutes(10));
        Console = writer.ToString();
        var runs = System.IO.Directory.GetDirectories(_output.FullPath);
        Directory = runs.Length == 1 ? runs[0] : throw new InvalidOperationException($"Expected one run directory, found {runs.Length}. Output:\n{Console}");
        _document = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(Directory, "report.json")));
    }

    public Task DisposeAsync()
    {
        _document?.Dispose();
        _output.Dispose();
        return Task.CompletedTask;
    }
}
