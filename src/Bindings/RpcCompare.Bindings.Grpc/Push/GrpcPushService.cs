using System.Runtime.CompilerServices;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using RpcCompare.Contracts.Push;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Grpc.Push;

/// <summary>
/// The host's topic registry as gRPC server streaming: each subscription is one call, each
/// notification one message of its reply stream. protobuf-net.Grpc serializes per message, per
/// stream: gRPC offers no way here to send bytes serialized once for all subscribers.
/// </summary>
internal sealed class GrpcPushService : IPushService
{
    private readonly TopicRegistry _registry;
    private readonly IHttpContextAccessor _http;

    public GrpcPushService(TopicRegistry registry, IHttpContextAccessor http)
    {
        _registry = registry;
        _http = http;
    }

    public async IAsyncEnumerable<Notification> SubscribeAsync(SubscribeRequest request, [EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(request);
        var call = _http.HttpContext;
        var (subscribed, lastSequence) = await _registry.SubscribeAsync(request.Topic, request.After, cancellationToken);
        using var subscriber = subscribed;
        // A stalled client leaves this stream waiting in WriteAsync on HTTP/2 flow control, where
        // no exception reaches it: when the registry drops the subscriber, reset the stream.
        await using var abortWhenDropped = subscriber.Ended.Register(() =>
        {
            if (subscriber.EndReason is not null)
            {
                call?.Abort();
            }
        });
        yield return new Notification { Topic = request.Topic, Sequence = 0, Items = [$"subscribed after sequence {lastSequence}"] };
        var reader = subscriber.Notifications;
        while (await WaitAsync(reader, cancellationToken))
        {
            while (reader.TryRead(out var publication))
            {
                yield return publication.Notification;
            }
        }
    }

    public Task<PublishReply> PublishAsync(Notification notification) => _registry.PublishAsync(notification).AsTask();

    // Outside the iterator: C# allows no yield inside a try with a catch.
    private static async Task<bool> WaitAsync(System.Threading.Channels.ChannelReader<Publication> reader, CancellationToken cancellationToken)
    {
        try
        {
            return await reader.WaitToReadAsync(cancellationToken);
        }
        catch (PushSubscriberDisconnectedException exception)
        {
            throw new RpcException(new Status(StatusCode.ResourceExhausted, exception.Message));
        }
    }
}
