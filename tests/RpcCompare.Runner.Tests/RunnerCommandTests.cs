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
        foreach (var text in new[] { "--quick", "--suite", "--bindings", "--host", "--clients", "--pin", "--full", "--max-subscribers", "ops, shapes, payload, pingpong, breakeven" })
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
