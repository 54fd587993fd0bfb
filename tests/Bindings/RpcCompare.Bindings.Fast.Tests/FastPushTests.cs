using System.Buffers.Binary;
using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Bindings.Fast.Client;
using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Bindings.Push;
using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;
using RpcCompare.Push;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>
/// Publish/subscribe over fast-uds as the frames carry it: what every push binding does is checked
/// through the client factory (Client.Tests' PushBindingTests); here, what is fast-uds's own.
/// </summary>
public sealed class FastPushTests
{
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(10);

    [Fact]
    public async Task APublication_IsFramedOnce_ForEverySubscriber_InOrder()
    {
        await using var server = await StartAsync();
        var clients = Enumerable.Range(0, 3).Select(_ => NewClient(server)).ToArray();
        var received = clients.Select(_ => new List<long>()).ToArray();
        try
        {
            for (var i = 0; i < clients.Length; i++)
            {
                var mine = received[i];
                await clients[i].SubscribeAsync("room", n => { lock (mine) { mine.Add(n.Sequence); } }).WaitAsync(Settle);
            }

            await using var publisher = NewClient(server);
            for (var i = 1; i <= 5; i++)
            {
                var reply = await publisher.PublishAsync(new Notification { Topic = "room", Items = [$"item {i}"] }).WaitAsync(Settle);
                Assert.Equal((i, 3, 0), (reply.Sequence, reply.Queued, reply.Disconnected));
            }

            await Eventually.HoldsAsync(() => received.All(r => Count(r) == 5), Settle, () => string.Join(", ", received.Select(Count)));
            Assert.All(received, r => Assert.Equal([1L, 2, 3, 4, 5], r));
            // Five publications, each serialized once for the three subscribers.
            Assert.Equal(5, Topics(server).Statistics.SharedEncodings);
        }
        finally
        {
            foreach (var client in clients)
            {
                await client.DisposeAsync();
            }
        }
    }

    [Fact]
    public async Task AHostWithoutTopics_RefusesSubscriptionsAndPublications_AndStillServesCalls()
    {
        await using var server = await TestFastServer.StartAsync();
        await using var client = NewClient(server);

        var subscribe = await Assert.ThrowsAsync<RpcServiceException>(() => client.SubscribeAsync("room", _ => { }).WaitAsync(Settle));
        var publish = await Assert.ThrowsAsync<RpcServiceException>(() => client.PublishAsync(new Notification { Topic = "room" }).WaitAsync(Settle));

        Assert.Equal((RpcErrorCode.NotFound, RpcErrorCode.NotFound), (subscribe.Code, publish.Code));
        Assert.Contains("serves no publish/subscribe", subscribe.Message, StringComparison.Ordinal);
        Assert.Equal(4, server.Client<IProbe>().Echo(4));
    }

    [Fact]
    public async Task ASubscribeBodyThatIsNotARequest_IsInvalidArgument_AndTheConnectionServesOn()
    {
        await using var server = await StartAsync();
        using var raw = new RawFastConnection(server.Path);

        raw.Send(Frame(FrameKind.Subscribe, 5, [0xFF, 0xFF, 0xFF]));
        var (refusal, body) = raw.Read();
        raw.Send(Frame(FrameKind.Subscribe, 6, Message(new SubscribeRequest { Topic = "room" })));
        var (accepted, _) = raw.Read();

        Assert.Equal((FrameKind.Error, 5u), (refusal.Kind, refusal.CallId));
        Assert.Equal(RpcErrorCode.InvalidArgument, (RpcErrorCode)Body.ReadProtocol<ErrorBody>(body).Code);
        Assert.Contains("Subscribe frame's body is not a SubscribeRequest", Body.ReadProtocol<ErrorBody>(body).Message, StringComparison.Ordinal);
        Assert.Equal((FrameKind.Reply, 6u), (accepted.Kind, accepted.CallId));
        Assert.Equal(1, Topics(server).Statistics.Subscribers);
    }

    [Fact]
    public async Task APublicationOverTheServersLimit_IsAnsweredQuotaExceededAndClosed()
    {
        await using var server = await StartAsync(o => o.MaxMessageSize = 1_000);
        using var raw = new RawFastConnection(server.Path);
        var header = new byte[FrameHeader.Size];
        BinaryPrimitives.WriteUInt32LittleEndian(header, 8 + 70_000);
        header[4] = (byte)FrameKind.Publish;
        BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(8), 7);

        raw.Send(header);
        var (answer, body) = raw.Read();

        Assert.Equal((FrameKind.Error, 0u), (answer.Kind, answer.CallId));
        Assert.Contains("70,000 bytes, over the server's limit of 1,000 bytes", Body.ReadProtocol<ErrorBody>(body).Message, StringComparison.Ordinal);
        Assert.Null(raw.ReadOrClosed());
    }

    [Theory]
    [InlineData((byte)FrameKind.Notification)]
    [InlineData((byte)FrameKind.SubscriptionEnded)]
    public async Task AClientSendingTheServersPushFrames_IsClosedAsMalformed(byte kindValue)
    {
        var kind = (FrameKind)kindValue;
        await using var server = await StartAsync();
        using var raw = new RawFastConnection(server.Path);

        raw.Send(Frame(kind, 0, []));

        Assert.Null(raw.ReadOrClosed());
        await Eventually.HoldsAsync(() => server.Log.Matching($"a client sent a {kind} frame").Count == 1, Settle, () => string.Join("\n", server.Log.Lines));
    }

    [Fact]
    public async Task UnsubscribeTwice_IsNotFound_AndTheTopicIsFree()
    {
        await using var server = await StartAsync();
        using var raw = new RawFastConnection(server.Path);
        var room = Message(new SubscribeRequest { Topic = "room" });

        raw.Send(Frame(FrameKind.Subscribe, 1, room));
        raw.Send(Frame(FrameKind.Subscribe, 2, room));
        raw.Send(Frame(FrameKind.Unsubscribe, 3, room));
        raw.Send(Frame(FrameKind.Unsubscribe, 4, room));
        var answers = Enumerable.Range(0, 4).Select(_ => raw.Read()).ToArray();

        Assert.Equal([FrameKind.Reply, FrameKind.Error, FrameKind.Reply, FrameKind.Error], answers.Select(a => a.Header.Kind));
        Assert.Contains("already subscribes to 'room'", Body.ReadProtocol<ErrorBody>(answers[1].Body).Message, StringComparison.Ordinal);
        Assert.Equal(RpcErrorCode.NotFound, (RpcErrorCode)Body.ReadProtocol<ErrorBody>(answers[3].Body).Code);
        Assert.Equal(0, Topics(server).Statistics.Subscribers);
    }

    [Fact]
    public async Task ASubscriberSendingNothing_IsNotClosedAsIdle()
    {
        await using var server = await StartAsync(o => { o.IdleTimeout = TimeSpan.FromMilliseconds(200); o.FrameTimeout = TimeSpan.FromMilliseconds(100); });
        await using var subscriber = NewClient(server);
        var received = new List<long>();
        await using var subscription = await subscriber.SubscribeAsync("room", n => { lock (received) { received.Add(n.Sequence); } }).WaitAsync(Settle);

        // A connection opened after the subscription, with nothing to do: once the server has closed it
        // as idle, the subscriber's connection has been quiet at least as long.
        using (new RawFastConnection(server.Path))
        {
            await Eventually.HoldsAsync(() => server.Log.Matching("closed: idle").Count == 1, Settle, () => string.Join("\n", server.Log.Lines));
        }

        await using var publisher = NewClient(server);
        Assert.Equal(1, (await publisher.PublishAsync(new Notification { Topic = "room" }).WaitAsync(Settle)).Queued);
        await Eventually.HoldsAsync(() => Count(received) == 1, Settle, () => "the subscriber's connection was closed");
    }

    [Fact]
    public async Task APushClientPastTheConnectionLimit_IsToldWhy()
    {
        await using var server = await StartAsync(o => o.MaxConnections = 1);
        using var holder = new RawFastConnection(server.Path);
        holder.Bind<IProbe>();
        await using var client = NewClient(server);

        var refused = await Assert.ThrowsAsync<RpcServiceException>(() => client.SubscribeAsync("room", _ => { }).WaitAsync(Settle));

        Assert.Equal(RpcErrorCode.QuotaExceeded, refused.Code);
        Assert.Contains("limit of 1 connections (FastUds:MaxConnections)", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AnUnknownVariant_OrARelativePath_IsRefused()
    {
        var provider = new FastClientProvider();

        Assert.Equal(["frames"], provider.PushVariants);
        Assert.Throws<ArgumentException>(() => provider.CreatePushClient("relative.sock"));
        Assert.Contains("frames", Assert.ThrowsAny<ArgumentException>(() => provider.CreatePushClient("/tmp/fast.sock", "stream")).Message, StringComparison.Ordinal);
    }

    private static Task<TestFastServer> StartAsync(Action<FastUdsBindingOptions>? configure = null) =>
        TestFastServer.StartAsync(configure, s => s.AddPushServices());

    private static IPushClient NewClient(TestFastServer server) => new FastClientProvider().CreatePushClient(server.Path);

    private static TopicRegistry Topics(TestFastServer server) => server.Services.GetRequiredService<TopicRegistry>();

    private static int Count(List<long> sequences)
    {
        lock (sequences)
        {
            return sequences.Count;
        }
    }

    private static byte[] Message<T>(T message)
    {
        using var writer = new FrameWriter();
        Body.WriteMessage(writer, message);
        return writer.Complete(FrameKind.Request, 0, 0)[FrameHeader.Size..].ToArray();
    }

    private static byte[] Frame(FrameKind kind, uint callId, byte[] body)
    {
        using var writer = new FrameWriter();
        System.Buffers.BuffersExtensions.Write(writer, body);
        return writer.Complete(kind, 0, callId).ToArray();
    }
}
