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
        var rpcc = RpccCommands.Create(TextWriter.Null, TextWriter.Null);
        var quoted = Documentation.QuotedCommands("clients/RpcCompare.Cli", shellName: "rpcc", shellCommands: [.. rpcc.Subcommands.Select(c => c.Name), "--help"]).ToList();

        // Every way the pages run it: through dotnet run, by name in fenced code, by name in inline code.
        Assert.Contains(quoted, q => q.Page == Path.Combine("docs", "calling-a-binding.md") && q.Arguments is ["call", "--binding", "pipes", ..]);
        Assert.Contains(quoted, q => q.Page == Path.Combine("docs", "security.md") && q.Arguments is ["call", "-b", "grpc-tcp", "-e", "ep.json", "--tls-client-certificate", ..]);
        Assert.Contains(quoted, q => q.Page == Path.Combine("docs", "containers.md") && q.Arguments is ["health", "--binding", "grpc-tcp"]);
        Assert.Empty(QuotedCommandCheck.Problems(rpcc, quoted));
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
        // The parser's own message, after the quoted line, names the operation it refused.
        const string Line = "b.md: call -b pipes -a /tmp/p.sock ReadDirectry: ";
        Assert.StartsWith(Line, problems[1], StringComparison.Ordinal);
        Assert.Contains("ReadDirectry", problems[1][Line.Length..], StringComparison.Ordinal);
    }

    [Fact]
    public void ByName_OnlyCodeThatStartsWithTheNameAndOneOfItsCommands_IsACommand()
    {
        // No project is quoted as "no/Such.Project": everything found is rpcc run by name.
        var quoted = Documentation.QuotedCommands("no/Such.Project", shellName: "rpcc", shellCommands: ["health"]).ToList();

        Assert.Contains(quoted, q => q.Page == Path.Combine("docs", "containers.md"));
        // security.md's fenced "$ rpcc call ..." is left out by the command list, its prose "rpcc with an address" by not being code.
        Assert.All(quoted, q => Assert.Equal("health", q.Arguments[0]));
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
