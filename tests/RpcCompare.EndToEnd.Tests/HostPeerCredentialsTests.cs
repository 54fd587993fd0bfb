using RpcCompare.Bindings;
using RpcCompare.Bindings.Security;
using RpcCompare.Cli;
using RpcCompare.Testing;

namespace RpcCompare.EndToEnd.Tests;

/// <summary>
/// The host's Unix sockets serve only the users it allows (SO_PEERCRED): a client run as user
/// nobody (setpriv) is refused on each, and the host says which uid it refused. The sockets are
/// opened to every user for the test, so only the peer check stands between nobody and the host.
/// </summary>
[System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
public sealed class HostPeerCredentialsTests
{
    private const uint Nobody = 65534;
    private static readonly string[] s_unixBindings = [BindingNames.WcfUds, BindingNames.GrpcUds, BindingNames.FastUds, BindingNames.Pipes];

    [Fact]
    public async Task AnotherUser_IsRefusedOnEveryUnixSocket_ToldWhy_AndLoggedByUid_WhileTheHostsUserIsServed()
    {
        using var directory = new SharedDirectory();
        await using var host = HostProcess.Start("--bindings", string.Join(',', s_unixBindings), "--socket-dir", directory.PathFor("s"), "--endpoints-file", directory.PathFor("ep.json"));
        var endpoints = await host.WaitForEndpointsAsync(directory.PathFor("ep.json"));
        await host.WaitForOutputAsync($"Unix-socket bindings serve users {PeerCredentials.CurrentUserId}");
        directory.OpenToEveryone("s");

        foreach (var binding in s_unixBindings)
        {
            var refused = await RpccAsNobodyAsync(binding, endpoints[binding]);
            Assert.True(refused.ExitCode == RpccCommands.CallFailed, $"{binding}: {refused.Output}");
            Assert.Contains($"PermissionDenied: This host does not serve user {Nobody} on its Unix sockets (the host's --allowed-users).", refused.Output, StringComparison.Ordinal);
            var served = (await Rpcc.RunAsync(["call", "-b", binding, "-a", endpoints[binding], "Ping"])).ExitCode;
            Assert.Equal((binding, RpccCommands.Ok), (binding, served));
        }

        // Stopping writes the last summaries.
        Assert.Equal(0, await host.TerminateAsync());
        foreach (var binding in s_unixBindings)
        {
            Assert.Matches($@"Binding {binding}, last \d+ s: refused \d+ connections? from users it does not serve \(uid {Nobody}: \d+\)", host.Output);
        }
    }

    [Fact]
    public async Task AUserOnTheList_IsServed()
    {
        using var directory = new SharedDirectory();
        await using var host = HostProcess.Start("--bindings", string.Join(',', s_unixBindings), "--socket-dir", directory.PathFor("s"), "--endpoints-file", directory.PathFor("ep.json"),
            "--allowed-users", $"{Nobody},{PeerCredentials.CurrentUserId}");
        var endpoints = await host.WaitForEndpointsAsync(directory.PathFor("ep.json"));
        directory.OpenToEveryone("s");

        foreach (var binding in s_unixBindings)
        {
            var served = await RpccAsNobodyAsync(binding, endpoints[binding]);
            Assert.True(served.ExitCode == RpccCommands.Ok, $"{binding}: {served.Output}");
        }

        Assert.Equal(0, await host.TerminateAsync());
        Assert.DoesNotContain("from users it does not serve", host.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AnAllowListThatIsNotUserIds_StopsTheHost_SayingWhy()
    {
        await using var host = HostProcess.Start("--bindings", BindingNames.Pipes, "--allowed-users", "root");

        Assert.Equal(2, await host.WaitForExitAsync());
        Assert.Contains("rpccompare-host: --allowed-users takes user ids (numbers) separated by commas, or \"any\"; got 'root'.", host.Output, StringComparison.Ordinal);
    }

    // rpcc in a process of its own as nobody: setpriv needs root, as CI runs.
    private static Task<(int ExitCode, string Output)> RpccAsNobodyAsync(string binding, string address)
    {
        Assert.True(PeerCredentials.CurrentUserId == 0, "This test runs a client as user nobody with setpriv, which needs root (CI runs as root).");
        return TestProcess.RunAsync("setpriv",
            [$"--reuid={Nobody}", $"--regid={Nobody}", "--clear-groups", "dotnet", Path.Combine(AppContext.BaseDirectory, "rpcc.dll"), "call", "-b", binding, "-a", address, "Ping"],
            TestTimeout.Default, environment: new Dictionary<string, string> { ["HOME"] = "/tmp", ["DOTNET_CLI_HOME"] = "/tmp" });
    }

    /// <summary>A directory under /tmp every user can enter (the test's own temporary directory may be private to it).</summary>
    [System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
    private sealed class SharedDirectory : IDisposable
    {
        private readonly string _path = Path.Combine("/tmp", "rpccompare-peers-" + Guid.NewGuid().ToString("N")[..12]);

        public SharedDirectory()
        {
            Directory.CreateDirectory(_path);
            File.SetUnixFileMode(_path, (UnixFileMode)0x1ED); // 0755
        }

        public string PathFor(string name) => Path.Combine(_path, name);

        /// <summary>Lets every user reach and connect to every socket under <paramref name="name"/>.</summary>
        public void OpenToEveryone(string name)
        {
            foreach (var entry in new DirectoryInfo(PathFor(name)).EnumerateFileSystemInfos("*", SearchOption.AllDirectories).Append(new DirectoryInfo(PathFor(name))))
            {
                File.SetUnixFileMode(entry.FullName, entry is DirectoryInfo ? (UnixFileMode)0x1ED : (UnixFileMode)0x1FF); // 0755, 0777
            }
        }

        public void Dispose() => Directory.Delete(_path, recursive: true);
    }
}
