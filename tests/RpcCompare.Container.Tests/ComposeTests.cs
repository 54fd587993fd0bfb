using System.Text.Json;
using RpcCompare.Bindings;
using RpcCompare.Client;
using RpcCompare.Testing;

namespace RpcCompare.Container.Tests;

/// <summary>
/// docker/compose.yaml run by podman-compose (Debian's 1.0.3) with the images the other container
/// tests built: the host service on its published loopback ports, the Node.js client and the
/// runner as one-off containers on the compose network.
/// </summary>
[Trait("Category", "Container")]
[Collection(ContainerImages.Collection)]
public sealed class ComposeTests(ContainerImages images)
{
    [Fact]
    public async Task ComposeFile_StartsTheHost_AndItsClientServicesReachItByServiceName()
    {
        images.AssertBuilt("host");
        images.AssertBuilt("runner");
        images.AssertBuilt("node-client");
        var project = "rpccompare-test-" + Guid.NewGuid().ToString("N")[..8];
        try
        {
            var up = await ComposeAsync(project, "up", "-d", "--no-build", "host");
            Assert.True(up.ExitCode == 0, up.Output);
            // podman runs no health-check timer without systemd here, so compose's service_healthy
            // never turns true: wait on the published grpc-tcp port's standard health service instead,
            // trusting the certificate the endpoints file on the compose volume names.
            var volume = await Podman.RunAsync("volume", "inspect", "--format", "{{.Mountpoint}}", $"{project}_rpccompare");
            Assert.True(volume.ExitCode == 0, volume.Output);
            var endpoints = await EndpointsFile.WaitAsync(Path.Combine(volume.Output.Trim(), "endpoints.json"), TimeSpan.FromSeconds(60));
            Assert.Equal("https://host:50051", endpoints.Addresses[BindingNames.GrpcTcp]);
            await WaitUntilServingAsync("https://127.0.0.1:50051", endpoints.ClientTls);

            var health = await ComposeAsync(project, "run", "--rm", "--no-deps", "node-client");
            Assert.True(health.ExitCode == 0, health.Output);
            Assert.Contains("\"status\": \"SERVING\"", health.Output, StringComparison.Ordinal);
            var overSocket = await ComposeAsync(project, "run", "--rm", "--no-deps", "node-client", "grpc", "unix:/run/rpccompare/grpc.sock", "read-directory", "files");
            Assert.True(overSocket.ExitCode == 0, overSocket.Output);
            Assert.Contains("entry-00099", overSocket.Output, StringComparison.Ordinal);
            var soap = await ComposeAsync(project, "run", "--rm", "--no-deps", "node-client", "soap", "https://host:8080", "write-at", "0", "--ca", "/run/rpccompare/tls-certificate.pem");
            Assert.True(soap.ExitCode == 0, soap.Output);
            Assert.Contains("\"Offset\": 0", soap.Output, StringComparison.Ordinal);

            var runner = await ComposeAsync(project, TimeSpan.FromMinutes(5), "run", "--rm", "--no-deps", "runner",
                "--quick", "--suite", "ops", "--host", "/run/rpccompare/endpoints.json", "--output", "/run/rpccompare/results");
            Assert.True(runner.ExitCode == 0, runner.Output);
            // The reports are on the compose volume (podman-compose 1.0.3 drops `run -v`): read them where podman keeps it.
            var report = Path.Combine(Assert.Single(Directory.GetDirectories(Path.Combine(volume.Output.Trim(), "results"))), "report.json");
            using var document = JsonDocument.Parse(await File.ReadAllTextAsync(report));
            var measured = document.RootElement.GetProperty("measurements").EnumerateArray().Select(m => m.GetProperty("binding").GetString()!).ToHashSet();
            Assert.Empty(BindingNames.All.Except(measured));
        }
        finally
        {
            // podman-compose 1.0.3's down removes the containers only.
            await ComposeAsync(project, "down");
            await Podman.RunAsync("volume", "rm", "-f", $"{project}_rpccompare");
            await Podman.RunAsync("volume", "rm", "-f", $"{project}_rpccompare-state");
            await Podman.RunAsync("network", "rm", "-f", $"{project}_default");
        }
    }

    private static Task<(int ExitCode, string Output)> ComposeAsync(string project, params string[] arguments) =>
        ComposeAsync(project, TimeSpan.FromMinutes(2), arguments);

    private static Task<(int ExitCode, string Output)> ComposeAsync(string project, TimeSpan timeout, params string[] arguments) =>
        TestProcess.RunAsync("podman-compose",
            [$"--podman-args={string.Join(' ', Podman.Global)}", "-p", project, "-f", RepositoryPaths.Combine("docker", "compose.yaml"), .. arguments],
            timeout, RepositoryPaths.Root);

    private static async Task WaitUntilServingAsync(string address, Bindings.Security.ClientTlsOptions? tls)
    {
        using var factory = RpcClientFactory.CreateDefault(new RpcClientOptions { Tls = tls });
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(60);
        while (true)
        {
            try
            {
                if (await factory.CheckHealthAsync(BindingNames.GrpcTcp, address).WaitAsync(TimeSpan.FromSeconds(5)) == "SERVING")
                {
                    return;
                }
            }
            catch (Exception exception) when (DateTime.UtcNow < deadline && exception is not OutOfMemoryException)
            {
                // Not listening yet.
            }

            Assert.True(DateTime.UtcNow < deadline, $"the compose host did not report SERVING on {address} within 60 s");
            await Task.Delay(500);
        }
    }
}
