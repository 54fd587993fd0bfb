using System.Text.Json;
using NBomber.Contracts.Stats;
using RpcCompare.Load.Reporting;
using RpcCompare.Load.Scenarios;
using RpcCompare.Testing;
using Spectre.Console;

namespace RpcCompare.Load.Tests;

/// <summary>
/// One short load run over every network binding (host started as a separate process, Ping and
/// the 100 kB echo, closed and open model, 1 s each): NBomber's own statistics and reports, and
/// the summary beside them. Nothing here asserts a rate or a latency.
/// </summary>
public sealed class QuickLoadRunTests : IClassFixture<QuickLoadRunTests.QuickLoadRun>
{
    private static readonly string[] s_bindings = ["wcf-nettcp", "wcf-uds", "wcf-http", "grpc-tcp", "grpc-uds", "pipes"];
    private readonly QuickLoadRun _run;

    public QuickLoadRunTests(QuickLoadRun run)
    {
        _run = run;
    }

    public static TheoryData<string, string, string> Scenarios()
    {
        var scenarios = new TheoryData<string, string, string>();
        foreach (var binding in s_bindings)
        {
            foreach (var operation in new[] { "ping", "echo-100kB" })
            {
                scenarios.Add(binding, operation, "closed");
                scenarios.Add(binding, operation, "open");
            }
        }

        return scenarios;
    }

    [Theory]
    [MemberData(nameof(Scenarios))]
    public void NBomberStatistics_ShowCallsServed_AndNoneFailed(string binding, string operation, string model)
    {
        Assert.True(_run.ExitCode == 0, _run.Console);
        var result = _run.Results.Single(r => r.Binding == binding && r.Operation == operation && r.Model == model);
        var scenario = Assert.Single(result.Stats!.ScenarioStats);

        Assert.True(scenario.Ok.Request.Count > 0, $"{binding} {operation} {model}: no call succeeded");
        Assert.Equal(0, scenario.Fail.Request.Count);
        Assert.Null(result.FirstError);
        Assert.True(result.Connections >= 1);
        Assert.InRange(result.Latency.P50, double.Epsilon, result.Latency.P99);
    }

    [Theory]
    [MemberData(nameof(Scenarios))]
    public void NBomberReports_HtmlAndMarkdownExist_InTheScenariosFolder(string binding, string operation, string model)
    {
        var result = _run.Results.Single(r => r.Binding == binding && r.Operation == operation && r.Model == model);
        var reports = result.Stats!.ReportFiles;

        foreach (var format in new[] { ReportFormat.Html, ReportFormat.Md })
        {
            var report = Assert.Single(reports, r => r.ReportFormat == format);
            Assert.True(File.Exists(report.FilePath), report.FilePath);
            Assert.Equal(Path.Combine(_run.Directory, binding, $"{operation}-{model}"), Path.GetDirectoryName(report.FilePath));
            Assert.StartsWith($"{operation}-{model}", Path.GetFileName(report.FilePath), StringComparison.Ordinal);
        }
    }

    [Fact]
    public void Summary_PutsEveryBindingSideBySide_PerModel_AndLinksNBombersReports()
    {
        var markdown = File.ReadAllText(Path.Combine(_run.Directory, "report.md"));
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(_run.Directory, "report.json")));

        Assert.Contains("| operation | " + string.Join(" | ", s_bindings) + " |", markdown, StringComparison.Ordinal);
        Assert.Contains("## closed model: 2 virtual users", markdown, StringComparison.Ordinal);
        Assert.Contains("## open model: 20 calls started per second", markdown, StringComparison.Ordinal);
        Assert.Contains("(4.1.2 is its last Apache-2.0 release)", markdown, StringComparison.Ordinal);
        Assert.Equal("rpccompare-load/1", json.RootElement.GetProperty("schema").GetString());
        Assert.Equal(s_bindings.Length * 4, json.RootElement.GetProperty("results").GetArrayLength());
        Assert.All(json.RootElement.GetProperty("results").EnumerateArray(), r =>
            Assert.All(r.GetProperty("reportFiles").EnumerateArray(), f => Assert.Contains($"({Path.GetRelativePath(_run.Directory, f.GetString()!)})", markdown, StringComparison.Ordinal)));
    }

    [Fact]
    public async Task UnknownOperation_IsAUsageError_NamingTheOperations()
    {
        var (exitCode, console) = await QuickLoadRun.InvokeAsync(["--operations", "teleport"]);

        Assert.Equal(2, exitCode);
        Assert.Contains("Unknown operation 'teleport'. Operations: ping, read-directory, write-at, echo-100kB.", console, StringComparison.Ordinal);
    }

    public sealed class QuickLoadRun : IAsyncLifetime
    {
        private readonly TemporaryDirectory _output = new();

        public int ExitCode { get; private set; }

        public string Console { get; private set; } = "";

        public string Directory { get; private set; } = "";

        internal IReadOnlyList<LoadResult> Results { get; private set; } = [];

        public static async Task<(int ExitCode, string Console)> InvokeAsync(string[] arguments)
        {
            using var writer = new StringWriter();
            var exitCode = await LoadCommand.Create(CaptureConsole(writer)).Parse(arguments).InvokeAsync().Bounded();
            return (exitCode, writer.ToString());
        }

        public async Task InitializeAsync()
        {
            using var writer = new StringWriter();
            var options = new LoadOptions(null, [LoadOperation.Find("ping"), LoadOperation.Find("echo-100kB")], [LoadModel.Closed, LoadModel.Open],
                new LoadSettings(2, 20, TimeSpan.Zero, TimeSpan.FromSeconds(1)), true, null, _output.FullPath);
            (ExitCode, Results) = await new LoadRun(options, CaptureConsole(writer)).RunAsync(CancellationToken.None).WaitAsync(TimeSpan.FromMinutes(5));
            Console = writer.ToString();
            var runs = System.IO.Directory.GetDirectories(_output.FullPath);
            Directory = runs.Length == 1 ? Path.Combine(runs[0], "load") : throw new InvalidOperationException($"Expected one run directory, found {runs.Length}. Output:\n{Console}");
        }

        public Task DisposeAsync()
        {
            _output.Dispose();
            return Task.CompletedTask;
        }

        private static IAnsiConsole CaptureConsole(StringWriter writer)
        {
            var console = AnsiConsole.Create(new AnsiConsoleSettings
            {
                Ansi = AnsiSupport.No,
                ColorSystem = ColorSystemSupport.NoColors,
                Interactive = InteractionSupport.No,
                Out = new AnsiConsoleOutput(writer),
            });
            console.Profile.Width = 200;
            return console;
        }
    }
}
