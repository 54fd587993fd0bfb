using CoreWCF.Channels;

namespace RpcCompare.Bindings.Wcf.Uds;

/// <summary>
/// The framing settings CoreWCF 1.9.1's Unix-socket listener never attaches to its connections
/// (its NetTcp listener does). Without them CoreWCF falls back to fixed timeouts (30 s preamble,
/// 2 min idle) and, when a session ends and it looks for them to keep the connection for another,
/// throws a NullReferenceException that Kestrel logs with a stack trace for every connection.
/// <see cref="WcfUdsServer"/> attaches these to each connection before CoreWCF sees it.
/// </summary>
internal sealed class UdsFramingListenOptions : NetFramingListenOptions
{
    public UdsFramingListenOptions(Uri baseAddress, IServiceProvider services, WcfUdsBindingOptions options)
    {
        BaseAddress = baseAddress;
        ApplicationServices = services;
        Server.WcfServiceModel.SetFramingTimeouts(ConnectionPoolSettings, options);
    }

    public override IServiceProvider ApplicationServices { get; }
}
