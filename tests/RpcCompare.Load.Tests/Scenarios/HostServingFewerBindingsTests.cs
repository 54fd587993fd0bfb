using RpcCompare.Bindings;
using RpcCompare.Testing;

namespace RpcCompare.Load.Tests.Scenarios;

/// <summary>
/// --host with a host that serves fewer bindings than this build has clients for (a host with TLS
/// serves no fast-tcp): without --bindings the load command loads what the host serves and says
/// what it left out; a binding named with --bindings that the host does not serve is still an error.
/// </summary>
[Collection(NBomberSessions.Name)]
public sealed class HostServingFewerBindingsTests
{
    [Fact]
    public async Task WithoutBindings_WhatTheHostServesIsLoaded_AndTheRestIsNamed()
    {
        await using var host = await InProcessHost.StartAsync(bindings: [BindingNames.Pipes], services: ["FileService"]);
        using var directory = new TemporaryDirectory();
        var endpoints = directory.PathFor("endpoints.json");
        await EndpointsFile.WriteAsync(endpoints, new HostEndpoints(new Dictionary<string, string> { [BindingNames.Pipes] = host.Address(BindingNames.Pipes) }));

        var (exitCode, console) = await LoadCommandRun.InvokeAsync(["--host", endpoints, "--quick", "--operations", "ping", "--models", "closed",
            "--warmup-seconds", "0", "--duration-seconds", "1", "--output", directory.PathFor("results")]);

        Assert.True(exitCode == 0, console);
        Assert.Contains("Not loaded: wcf-nettcp, wcf-uds, wcf-http, grpc-tcp, grpc-uds, fast-tcp, fast-uds (the host does not serve them).", console, StringComparison.Ordinal);

        var (namedExit, named) = await LoadCommandRun.InvokeAsync(["--host", endpoints, "--bindings", BindingNames.FastTcp, "--quick", "--output", directory.PathFor("results")]);

        Assert.NotEqual(0, namedExit);
        Assert.Contains("The host does not serve fast-tcp.", named, StringComparison.Ordinal);
    }
}
