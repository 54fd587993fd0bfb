using RpcCompare.Cli;
using RpcCompare.Host;
using RpcCompare.Testing;

namespace RpcCompare.EndToEnd.Tests;

/// <summary>rpcc and the host take every command line the README and docs/ quote for them.</summary>
public sealed class DocumentationTests
{
    [Fact]
    public void EveryQuotedRpccCommand_IsOneRpccsParserTakes()
    {
        var quoted = Documentation.QuotedCommands("clients/RpcCompare.Cli", shellName: "rpcc").ToList();

        // Both ways the pages run it: through dotnet run, and by name.
        Assert.Contains(quoted, q => q.Page == Path.Combine("docs", "calling-a-binding.md") && q.Arguments is ["call", "--binding", "pipes", ..]);
        Assert.Contains(quoted, q => q.Page == Path.Combine("docs", "security.md") && q.Arguments is ["call", "-b", "grpc-tcp", "-e", "ep.json", "--tls-client-certificate", ..]);
        Assert.Contains(quoted, q => q.Arguments is ["health", ..]);
        Assert.Empty(QuotedCommandCheck.Problems(RpccCommands.Create(TextWriter.Null, TextWriter.Null), quoted));
    }

    [Fact]
    public void TheRpccCheck_CatchesAnOptionOfAnotherSubcommand_AndAnUnknownOperation()
    {
        (string, string[])[] quoted =
        [
            ("a.md", ["health", "-b", "grpc-tcp", "--path", "files"]),
            ("b.md", ["call", "-b", "pipes", "-a", "/tmp/p.sock", "ReadDirectry"]),
            ("c.md", ["call", "-b", "pipes", "-e", "FILE", "ReadDirectory", "--path", "files"]),
        ];

        var problems = QuotedCommandCheck.Problems(RpccCommands.Create(TextWriter.Null, TextWriter.Null), quoted).ToList();

        Assert.Equal(2, problems.Count);
        Assert.StartsWith("a.md: health -b grpc-tcp --path files: no option --path", problems[0], StringComparison.Ordinal);
        Assert.StartsWith("b.md: ", problems[1], StringComparison.Ordinal);
        Assert.Contains("ReadDirectry", problems[1], StringComparison.Ordinal);
    }

    [Fact]
    public void EveryQuotedHostCommand_UsesOnlySwitchesTheHostKnows()
    {
        var quoted = Documentation.QuotedCommands("hosts/RpcCompare.Host").Where(q => q.Arguments.Length > 0).ToList();

        Assert.Contains(quoted, q => q.Arguments.Contains("--tls"));
        Assert.Empty(quoted.Where(q => HostCommandLine.FindUnknownSwitch(q.Arguments) is not null)
            .Select(q => $"{q.Page}: {string.Join(' ', q.Arguments)}: unknown {HostCommandLine.FindUnknownSwitch(q.Arguments)}"));
        Assert.Equal("--tsl", HostCommandLine.FindUnknownSwitch(["--tsl", "--endpoints-file", "ep.json"]));
    }
}
