using RpcCompare.Testing;

namespace RpcCompare.GeneratedClients.Tests.Node;

/// <summary>clients/node and its packages, installed once per test run.</summary>
internal static class NodeModules
{
    public static readonly string Directory = RepositoryPaths.Combine("clients", "node");
    private static readonly SemaphoreSlim InstallOnce = new(1, 1);
    private static bool s_installed;

    /// <summary>`npm ci` once per test run when node_modules is missing or older than package-lock.json.</summary>
    public static async Task EnsureInstalledAsync()
    {
        await InstallOnce.WaitAsync();
        try
        {
            var installed = Path.Combine(Directory, "node_modules", ".package-lock.json");
            if (s_installed || (File.Exists(installed) && File.GetLastWriteTimeUtc(installed) >= File.GetLastWriteTimeUtc(Path.Combine(Directory, "package-lock.json"))))
            {
                return;
            }

            var (exitCode, output) = await TestProcess.RunAsync("npm", ["ci", "--no-audit", "--no-fund"], TimeSpan.FromMinutes(5), Directory);
            Assert.True(exitCode == 0, $"npm ci in clients/node failed ({exitCode}):\n{output}");
            s_installed = true;
        }
        finally
        {
            InstallOnce.Release();
        }
    }
}
