using System.CommandLine;
using RpcCompare.Perf.Hosting;
using RpcCompare.Testing;
using Spectre.Console;

namespace RpcCompare.Runner.Tests;

public sealed class RunnerCommandTests
{
    [Theory]
    [InlineData("--suite", "nope", "Unknown suite 'nope'")]
    [InlineData("--bindings", "pigeon", "Unknown binding 'pigeon'")]
    public async Task BadSelection_FailsWithAClearError(string option, string value, string expected)
    {
        var (exitCode, output) = await RunAsync([option, value]);

        Assert.Equal(1, exitCode);
        Assert.Contains(expected, output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ContractsSuite_WithoutAnAssembly_SaysToGiveOne()
    {
        var (exitCode, output) = await RunAsync(["--suite", "ops,contracts"]);

        Assert.Equal(1, exitCode);
        Assert.Contains("The contracts suite measures a team's service assembly: give it with --contracts PATH.", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Contracts_ThatAreNoFile_FailBeforeAnythingStarts()
    {
        var (exitCode, output) = await RunAsync(["--contracts", "/nonexistent/Team.Services.dll"]);

        Assert.Equal(1, exitCode);
        Assert.Contains("Contract assembly '/nonexistent/Team.Services.dll': there is no such file.", output, StringComparison.Ordinal);
        Assert.DoesNotContain("Starting RpcCompare.Host", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Contracts_WithAHostStartedElsewhere_AreRefused()
    {
        using var directory = new TemporaryDirectory();
        var endpoints = directory.PathFor("endpoints.json");
        await File.WriteAllTextAsync(endpoints, "{}");

        var (exitCode, output) = await RunAsync(["--contracts", SampleServices.AssemblyPath, "--host", endpoints]);

        Assert.Equal(1, exitCode);
        Assert.Contains("--contracts starts a host of its own for the team's contracts, so it cannot measure a host started elsewhere (--host)", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Contracts_OverOnlyBindingsThatDoNotCarryThem_AreNothingToMeasure()
    {
        var (exitCode, output) = await RunAsync(["--contracts", SampleServices.AssemblyPath, "--bindings", "pipes"]);

        Assert.Equal(1, exitCode);
        Assert.Contains("Nothing to measure: none of the chosen bindings carries the contracts of RpcCompare.Samples.Services.dll: binding pipes cannot carry contract ICalculator", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AnAssemblyWithoutWorkloads_IsRefused_SayingWhatToWrite()
    {
        // The test corpus: served contracts, and no IRpcWorkload in it.
        var (exitCode, output) = await RunAsync(["--contracts", typeof(ContractCorpus.ICalculator).Assembly.Location]);

        Assert.Equal(1, exitCode);
        Assert.Contains("it has no workload: add a public class implementing RpcCompare.Workloads.IRpcWorkload<TContract> for each contract to measure", output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--trials")]
    [InlineData("--max-subscribers")]
    public async Task NonPositiveCounts_AreRefused(string option)
    {
        var (exitCode, output) = await RunAsync([option, "0"]);

        Assert.Equal(2, exitCode);
        Assert.Contains("must be positive", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task MaxTrialsBelowTheMinimum_IsRefused()
    {
        var (exitCode, output) = await RunAsync(["--trials", "3", "--max-trials", "2"]);

        Assert.Equal(2, exitCode);
        Assert.Contains("--max-trials (2) must be at least --trials (3)", output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(new string[0], CpuPlacement.None)]
    [InlineData(new[] { "--pin" }, CpuPlacement.SeparateCores)]
    [InlineData(new[] { "--pin", "separate" }, CpuPlacement.SeparateCores)]
    [InlineData(new[] { "--pin", "same" }, CpuPlacement.SameCore)]
    [InlineData(new[] { "--pin", "--quick" }, CpuPlacement.SeparateCores)]
    public void Pin_PlacesRunnerAndHost_OnACoreEachUnlessTold(string[] arguments, CpuPlacement placement)
    {
        var root = RunnerCommand.Create(AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(TextWriter.Null) }));
        var pin = root.Options.OfType<Option<string?>>().Single(o => o.Name == "--pin");

        var parse = root.Parse(arguments);

        Assert.Empty(parse.Errors);
        Assert.Equal(placement, RunnerCommand.Placement(parse, pin));
    }

    [Fact]
    public void APinPlacementOfNoKnownKind_IsAParseError_NamingIt()
    {
        var root = RunnerCommand.Create(AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(TextWriter.Null) }));

        var error = Assert.Single(root.Parse(["--pin", "elsewhere"]).Errors);

        Assert.Contains("elsewhere", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Help_ListsEverySuiteAndOption()
    {
        using var writer = new StringWriter();
        var root = RunnerCommand.Create(AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(writer) }));
        var parse = root.Parse(["--help"]);
        var original = System.Console.Out;
        System.Console.SetOut(writer);
        try
        {
            Assert.Equal(0, await parse.InvokeAsync());
        }
        finally
        {
            System.Console.SetOut(original);
        }

        var help = writer.ToString();
        foreach (var text in new[] { "--quick", "--suite", "--bindings", "--host", "--clients", "--pin", "--full", "--max-subscribers", "--max-trials", "--precision", "--contracts", "ops, shapes, payload, pingpong, breakeven" })
        {
            Assert.Contains(text, help, StringComparison.Ordinal);
        }
    }

    private static async Task<(int ExitCode, string Output)> RunAsync(string[] arguments)
    {
        using var writer = new StringWriter();
        var console = AnsiConsole.Create(new AnsiConsoleSettings { Ansi = AnsiSupport.No, Interactive = InteractionSupport.No, Out = new AnsiConsoleOutput(writer) });
        console.Profile.Width = 300;
        var exitCode = await RunnerCommand.Create(console).Parse(arguments).InvokeAsync().WaitAsync(TimeSpan.FromMinutes(1));
        return (exitCode, writer.ToString());
    }
}
