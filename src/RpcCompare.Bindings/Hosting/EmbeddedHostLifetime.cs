using Microsoft.Extensions.Hosting;

namespace RpcCompare.Bindings.Hosting;

/// <summary>
/// The lifetime of a binding's embedded host: started and stopped by the RpcCompare host alone.
/// The default console lifetime would also listen for Ctrl+C and SIGTERM and stop the binding on
/// its own, racing the RpcCompare host's orderly shutdown.
/// </summary>
internal sealed class EmbeddedHostLifetime : IHostLifetime
{
    public Task WaitForStartAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
