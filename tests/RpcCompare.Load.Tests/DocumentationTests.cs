using RpcCompare.Testing;

namespace RpcCompare.Load.Tests;

/// <summary>The load command takes every command line the README and docs/ quote for it.</summary>
public sealed class DocumentationTests
{
    [Fact]
    public void EveryQuotedLoadCommand_IsOneTheLoadCommandsParserTakes()
    {
        var quoted = Documentation.QuotedCommands("perf/RpcCompare.Load").ToList();
        using var writer = new StringWriter();

        Assert.Contains(quoted, q => q.Arguments.Contains("--find-max"));
        Assert.Empty(QuotedCommandCheck.Problems(LoadCommand.Create(PlainConsole.Into(writer)), quoted));
    }
}
