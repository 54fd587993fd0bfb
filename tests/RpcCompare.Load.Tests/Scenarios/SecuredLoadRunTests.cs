using System.Globalization;
using System.Text.RegularExpressions;
using RpcCompare.Load.Reporting;

namespace RpcCompare.Load.Tests.Scenarios;

/// <summary>
/// The load command with --security all: a host per mode (plaintext, tls, mtls), the TCP bindings
/// loaded in each, the secured rows labelled beside the plaintext ones, and the paired ratios in the
/// summary. Nothing here asserts a rate, a latency or a ratio's size.
/// </summary>
[Collection(NBomberSessions.Name)]
public sealed class SecuredLoadRunTests : IClassFixture<SecuredLoadRunTests.SecuredLoadRun>
{
    private static readonly string[] s_bindings = ["wcf-nettcp", "wcf-http", "grpc-tcp", "fast-tcp"];
    private static readonly string[] s_suffixes = ["", "/tls", "/mtls"];
    private static readonly string[] s_securedModes = ["tls", "mtls"];
    private readonly SecuredLoadRun _run;

    public SecuredLoadRunTests(SecuredLoadRun run)
    {
        _run = run;
    }

    public static TheoryData<string> Labels() => [.. from binding in s_bindings from suffix in s_suffixes select binding + suffix];

    [Theory]
    [MemberData(nameof(Labels))]
    public void EveryModeOfEveryTcpBinding_IsServed_WithNoFailedCall(string label)
    {
        Assert.True(_run.ExitCode == 0, _run.Console);
        var result = _run.Results.Single(r => r.Binding == label);

        Assert.True(result.Ok > 0, $"{label}: no call succeeded\n{_run.Console}");
        Assert.Equal(0, result.Failed);
        Assert.Equal(Path.Combine(_run.Directory, label), Path.GetDirectoryName(Assert.Single(result.ReportFiles, f => f.EndsWith(".md", StringComparison.Ordinal))));
    }

    [Fact]
    public void TheSummary_PairsEverySecuredRun_WithItsPlaintextRun()
    {
        var markdown = File.ReadAllText(Path.Combine(_run.Directory, "report.md"));

        Assert.Contains("## The cost of security: each secured run over the plaintext run of the same binding, operation and load", markdown, StringComparison.Ordinal);
        foreach (var binding in s_bindings)
        {
            foreach (var mode in s_securedModes)
            {
                var row = Regex.Match(markdown, $@"^\| {binding} \| {mode} \| ping \| closed model: 2 virtual users[^|]* \| (?<rate>[\d.]+) \| (?<p50>[\d.]+) \| (?<p99>[\d.]+) \|$", RegexOptions.Multiline);
                Assert.True(row.Success, $"no {binding} {mode} row in:\n{markdown}");
                var plain = _run.Results.Single(r => r.Binding == binding);
                var secured = _run.Results.Single(r => r.Binding == $"{binding}/{mode}");
                Assert.Equal((secured.RequestsPerSecond / plain.RequestsPerSecond).ToString("0.00", CultureInfo.InvariantCulture), row.Groups["rate"].Value);
            }
        }

        Assert.Contains("per security mode (plaintext, tls, mtls", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public async Task SecurityForAUnixSocketBindingOnly_IsAnError_SayingWhy()
    {
        var (exitCode, console) = await LoadCommandRun.InvokeAsync(["--security", "tls", "--bindings", "wcf-uds", "--quick"]);

        Assert.Equal(1, exitCode);
        Assert.Contains("--security tls applies to the TCP bindings (wcf-nettcp, wcf-http, grpc-tcp, fast-tcp); none of the bindings chosen is one.", console, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--security|telnet", "--security takes plaintext, tls, mtls or all (comma-separated); got 'telnet'.")]
    [InlineData("--security|tls|--soak|1m", "--security compares modes in the scenario and --find-max runs; --soak and --chaos run plaintext.")]
    [InlineData("--security|tls|--host|endpoints.json", "--security starts a host per mode; a host given with --host is secured as its endpoints file says, so leave --security out.")]
    public async Task AMisusedSecurityOption_IsAUsageError(string arguments, string error)
    {
        var (exitCode, console) = await LoadCommandRun.InvokeAsync(arguments.Split('|'));

        Assert.Equal(2, exitCode);
        Assert.Contains(error, console, StringComparison.Ordinal);
    }

    public sealed class SecuredLoadRun : LoadCommandRun
    {
        internal IReadOnlyList<LoadResult> Results => Report?.Results ?? [];

        protected override string[] Arguments =>
            ["--quick", "--security", "all", "--bindings", string.Join(',', s_bindings), "--operations", "ping", "--models", "closed",
             "--users", "2", "--duration-seconds", "2", "--warmup-seconds", "0"];
    }
}
