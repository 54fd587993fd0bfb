using RpcCompare.Load.Reporting;
using RpcCompare.Perf.Reporting.Dashboard;
using RpcCompare.Testing;

namespace RpcCompare.Load.Tests;

/// <summary>Runs the load command in process, as its command line would, with its console captured and its reports in a temporary folder.</summary>
public abstract class LoadCommandRun : IAsyncLifetime
{
    private readonly TemporaryDirectory _output = new();

    public int ExitCode { get; private set; }

    public string Console { get; private set; } = "";

    /// <summary>The run's results/&lt;UTC&gt;/load folder.</summary>
    public string Directory { get; private set; } = "";

    /// <summary>The results folder, where the dashboard is.</summary>
    public string OutputRoot => _output.FullPath;

    internal LoadReport? Report { get; private set; }

    /// <summary>The run as the dashboard reads it back from its report.json: what the written report gives results/index.html.</summary>
    public RunSummary DashboardEntry => RunCatalog.Read(OutputRoot).Runs.Single();

    /// <summary>The command line, without --output.</summary>
    protected abstract string[] Arguments { get; }

    public static async Task<(int ExitCode, string Console)> InvokeAsync(string[] arguments)
    {
        using var writer = new StringWriter();
        var exitCode = await LoadCommand.Create(PlainConsole.Into(writer)).Parse(arguments).InvokeAsync().Bounded();
        return (exitCode, writer.ToString());
    }

    public async Task InitializeAsync()
    {
        using var writer = new StringWriter();
        var command = LoadCommand.Create(PlainConsole.Into(writer), report => Report = report);
        ExitCode = await command.Parse([.. Arguments, "--output", _output.FullPath]).InvokeAsync().WaitAsync(TimeSpan.FromMinutes(5));
        Console = writer.ToString();
        var runs = System.IO.Directory.GetDirectories(_output.FullPath);
        Directory = runs.Length == 1 ? Path.Combine(runs[0], "load") : throw new InvalidOperationException($"Expected one run directory, found {runs.Length}. Output:\n{Console}");
    }

    public Task DisposeAsync()
    {
        _output.Dispose();
        return Task.CompletedTask;
    }
}
