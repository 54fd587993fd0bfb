using RpcCompare.Bindings.Security;
using RpcCompare.Client;

namespace RpcCompare.Runner.Measurement;

/// <summary>The runner's client settings: the product's defaults, with patience for connecting.</summary>
internal static class RunnerClients
{
    /// <summary>
    /// A cell opens its connections while the machine is busy (hosts still compiling their code,
    /// 128 clients connecting at once on two cores): a slow connect is not worth failing a long run
    /// for. The product's 5-second default stays for everyone else.
    /// </summary>
    public static readonly TimeSpan ConnectTimeout = TimeSpan.FromSeconds(30);

    /// <param name="tls">How the host's TLS certificate is trusted (a --host with TLS on, or the tls variant's host); null for plaintext.</param>
    /// <param name="inProcServices">The container inproc calls into (a team's contracts); null for RpcCompare's own services on the host's data root.</param>
    public static RpcClientFactory CreateFactory(ClientTlsOptions? tls = null, IServiceProvider? inProcServices = null) =>
        RpcClientFactory.CreateDefault(new RpcClientOptions { ConnectTimeout = ConnectTimeout, Tls = tls }, inProcServices);
}
