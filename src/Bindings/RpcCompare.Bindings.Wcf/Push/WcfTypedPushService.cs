using Microsoft.Extensions.Logging;
using RpcCompare.Contracts.Push;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Wcf.Push;

/// <summary>Calls the typed callback: CoreWCF serializes the notification again for every subscriber.</summary>
internal sealed class WcfTypedPushService : WcfPushService
{
    public WcfTypedPushService(TopicRegistry registry, ILogger<WcfTypedPushService> logger)
        : base(registry, logger)
    {
    }

    internal override Task SendAsync(IPushCallback callback, Publication publication) => callback.NotifyAsync(publication.Notification);
}
