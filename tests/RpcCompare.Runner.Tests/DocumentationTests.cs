using RpcCompare.Testing;
using Spectre.Console;

namespace RpcCompare.Runner.Tests;

/// <summary>The README and docs/ keep working as written: their links lead somewhere, and the runner takes every command line they quote.</summary>
public sealed class DocumentationTests
{
    [Fact]
    public void EveryRelativeLink_OfTheReadmeAndTheDocs_Resolves()
    {
        Assert.Contains("README.md", Documentation.Pages);
        Assert.Contains(Path.Combine("docs", "testing.md"), Documentation.Pages);

        Assert.Empty(Documentation.BrokenLinks());
    }

    [Fact]
    public void EveryQuotedRunnerCommand_IsOneTheRunnersParserTakes()
    {
        var quoted = Documentation.QuotedCommands("perf/RpcCompare.Runner").ToList();
        var root = RunnerCommand.Create(AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(TextWriter.Null) }));

        // The README's main command, and at least one with options.
        Assert.Contains(quoted, q => q.Page == "README.md" && q.Arguments.Length == 0);
        Assert.Contains(quoted, q => q.Arguments.Contains("--suite"));
        Assert.Empty(QuotedCommandCheck.Problems(root, quoted));
    }

    [Fact]
    public void TheCheck_CatchesAnOptionTheRunnerDoesNotHave_AndAValueItRefuses()
    {
        var root = RunnerCommand.Create(AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(TextWriter.Null) }));
        (string, string[])[] quoted = [("a.md", ["--suites", "ops"]), ("b.md", ["--repeat", "twice"]), ("c.md", ["--clients", "N"]), ("d.md", ["--suite", "ops", "-b", "pipes"])];

        var problems = QuotedCommandCheck.Problems(root, quoted).ToList();

        Assert.Equal(2, problems.Count);
        Assert.StartsWith("a.md: --suites ops: no option --suites", problems[0], StringComparison.Ordinal);
        Assert.StartsWith("b.md: --repeat twice: ", problems[1], StringComparison.Ordinal);
    }
}
