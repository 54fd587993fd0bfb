using RpcCompare.Testing;

namespace RpcCompare.GeneratedClients.Tests.Wcf;

public sealed class GeneratedCodeTests
{
    private const string Script = "clients/generated/RpcCompare.Generated.Wcf/svcutil.sh";

    /// <summary>
    /// Runs dotnet-svcutil (restoring the local tool first) over the checked-in WSDL and requires
    /// the checked-in client code to be what it generates now.
    /// </summary>
    [Fact]
    public async Task CheckedInClientCode_IsWhatSvcutilGeneratesFromTheCheckedInWsdl()
    {
        using var output = new TemporaryDirectory();

        var (exitCode, log) = await TestProcess.RunAsync("bash", [RepositoryPaths.Combine(Script), output.FullPath], TimeSpan.FromMinutes(3), RepositoryPaths.Root);

        Assert.True(exitCode == 0, $"{Script} failed ({exitCode}):\n{log}");
        var checkedIn = Path.GetDirectoryName(RepositoryPaths.Combine(Script))!;
        var generated = Directory.GetFiles(output.FullPath, "*.cs").Select(Path.GetFileName).Order(StringComparer.Ordinal).ToList();
        Assert.Equal(Directory.GetFiles(checkedIn, "*.cs").Select(Path.GetFileName).Order(StringComparer.Ordinal), generated);
        Assert.NotEmpty(generated);
        foreach (var name in generated)
        {
            var stale = File.ReadAllText(Path.Combine(checkedIn, name!)) != File.ReadAllText(Path.Combine(output.FullPath, name!));
            Assert.False(stale, $"{Path.Combine(checkedIn, name!)} differs from what svcutil generates now: run `clients/regenerate.sh` and commit the result.");
        }
    }
}
