using System.Buffers.Binary;
using System.Text;
using RpcCompare.Bindings.Pipes.Client;
using RpcCompare.Bindings.Pipes.Protocol;
using RpcCompare.Bindings.Push;
using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Pipes.Tests;

/// <summary>
/// Publish/subscribe over pipes when something goes wrong: what the server answers a connection
/// that asks twice or for what it does not hold, a subscriber too slow to keep up, a server that
/// goes away or sends what nobody asked for, and a client used after it was disposed.
/// </summary>
public sealed class PipePushFaultTests
{
    private readonly PipesClientProvider _provider = new();

    [Fact]
    public async Task ASubscribeReply_CarriesTheTopicsLastSequence()
    {
        await using var server = await TestPipeServer.StartAsync(configurePush: _ => { });
        await using var first = _provider.CreatePushClient(server.Path);
        await using var subscription = await first.SubscribeAsync("news", _ => { }).Bounded();
        await first.PublishAsync(new Notification { Topic = "news" }).Bounded();
        await first.PublishAsync(new Notification { Topic = "news" }).Bounded();
        await using var raw = await RawPipeConnection.ConnectAsync(server.Path);

        await raw.SendAsync(RawPipeConnection.Frame(16, (byte)OperationCode.Subscribe, Subscription("news")));
        var reply = await raw.ReadReplyBytesAsync();

        Assert.Equal((PipeFrame.Success, 2L), (reply!.Value.Status, BinaryPrimitives.ReadInt64LittleEndian(reply.Value.Body)));
    }

    [Fact]
    public async Task SubscribingTwiceOnOneConnection_IsInvalidArgument_AndUnsubscribingWhatItDoesNotHold_IsNotFound()
    {
        await using var server = await TestPipeServer.StartAsync(configurePush: _ => { });
        await using var raw = await RawPipeConnection.ConnectAsync(server.Path);

        await raw.SendAsync(RawPipeConnection.Frame(16, (byte)OperationCode.Subscribe, Subscription("news")));
        Assert.Equal(PipeFrame.Success, (await raw.ReadReplyAsync())!.Value.Status);
        await raw.SendAsync(RawPipeConnection.Frame(16, (byte)OperationCode.Subscribe, Subscription("news")));
        var twice = await raw.ReadReplyAsync();
        await raw.SendAsync(RawPipeConnection.Frame(17, (byte)OperationCode.Unsubscribe, Subscription("sport")));
        var notHeld = await raw.ReadReplyAsync();
        await raw.SendAsync(RawPipeConnection.Frame(16, (byte)OperationCode.Unsubscribe, Subscription("news")));
        var unsubscribed = await raw.ReadReplyAsync();

        Assert.Equal(((byte)RpcErrorCode.InvalidArgument, "This connection already subscribes to 'news'."), (twice!.Value.Status, twice.Value.Message));
        Assert.Equal(((byte)RpcErrorCode.NotFound, "This connection does not subscribe to 'sport'."), (notHeld!.Value.Status, notHeld.Value.Message));
        Assert.Equal(PipeFrame.Success, unsubscribed!.Value.Status);
    }

    [Fact]
    public async Task ASubscriberThatStopsReading_IsDropped_AndTheOthersKeepTheirs()
    {
        // One publication in a subscriber's queue at most; 64 KB publications fill the socket's
        // buffer within a few, so the stalled subscriber's queue fills and the registry drops it.
        await using var server = await TestPipeServer.StartAsync(configurePush: o => o.QueueCapacity = 1);
        await using var stalled = _provider.CreatePushClient(server.Path);
        await using var publisher = _provider.CreatePushClient(server.Path);
        using var release = new SemaphoreSlim(0);
        var stalledSubscription = await stalled.SubscribeAsync("room", _ => release.Wait(TestTimeout.Default)).Bounded();
        var big = new Notification { Topic = "room", Items = [new string('x', 64 * 1024)] };

        var disconnected = 0;
        for (var i = 0; i < 200 && disconnected == 0; i++)
        {
            disconnected = (await publisher.PublishAsync(big).Bounded()).Disconnected;
        }

        release.Release(1000);
        var ended = await Assert.ThrowsAsync<PushSubscriptionEndedException>(() => stalledSubscription.Completion).Bounded();
        Assert.Equal(1, disconnected);
        // Told why in a frame of its own, or, when the server was in the middle of a frame to it
        // (the client had stopped reading), by the connection closing: both end the subscription.
        Assert.Matches("^(Disconnected by the server: 1 notifications were waiting unread on topic 'room'.*|The pipes push connection to '.*' closed: .*)$", ended.Message);
        // The publisher's own connection was never at risk.
        await using var fresh = await publisher.SubscribeAsync("other", _ => { }).Bounded();
    }

    [Fact]
    public async Task AServerThatGoesAway_EndsEverySubscription_AndFailsLaterCallsClearly()
    {
        var server = await TestPipeServer.StartAsync(configurePush: _ => { });
        await using var client = _provider.CreatePushClient(server.Path);
        var subscription = await client.SubscribeAsync("news", _ => { }).Bounded();

        await server.Hosted.StopAsync(CancellationToken.None).Bounded();
        var ended = await Assert.ThrowsAsync<PushSubscriptionEndedException>(() => subscription.Completion).Bounded();
        var later = await Assert.ThrowsAsync<IOException>(() => client.PublishAsync(new Notification { Topic = "news" })).Bounded();

        Assert.Equal($"The pipes push connection to '{server.Path}' closed: The server closed the connection.", ended.Message);
        Assert.Equal($"The pipes push connection to '{server.Path}' is closed: The server closed the connection.", later.Message);
        await subscription.DisposeAsync(); // unsubscribing over a dead connection is not an error
        await server.DisposeAsync();
    }

    [Fact]
    public async Task ACallInFlightWhenTheConnectionDrops_FailsSayingSo()
    {
        await using var server = ScriptedPipeServer.Start(async (_, stream) => await ScriptedPipeServer.ReadRequestAsync(stream));
        await using var client = _provider.CreatePushClient(server.Path);

        var error = await Assert.ThrowsAsync<IOException>(() => client.PublishAsync(new Notification { Topic = "news" })).Bounded();

        Assert.Equal($"The pipes push connection to '{server.Path}' closed before the reply: The server closed the connection.", error.Message);
    }

    [Fact]
    public async Task AServerEndingATopic_FailsThatSubscriptionWithItsReason()
    {
        var subscribed = Reply(PipeFrame.Success, new byte[8]);
        await using var server = ScriptedPipeServer.Start(async (_, stream) =>
        {
            await ScriptedPipeServer.ReadRequestAsync(stream);
            await stream.WriteAsync(subscribed);
            await stream.WriteAsync(Reply(PipeFrame.SubscriptionEnded, [.. Topic("news"), .. Topic("too slow")]));
            await ScriptedPipeServer.WaitForCloseAsync(stream);
        });
        await using var client = _provider.CreatePushClient(server.Path);
        var subscription = await client.SubscribeAsync("news", _ => { }).Bounded();

        var ended = await Assert.ThrowsAsync<PushSubscriptionEndedException>(() => subscription.Completion).Bounded();

        Assert.Equal("too slow", ended.Message);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task WhatTheClientCannotTrust_EndsTheConnection_NamingWhy(bool unaskedReply)
    {
        var subscribed = Reply(PipeFrame.Success, new byte[8]);
        var bad = unaskedReply ? Reply(PipeFrame.Success, []) : [0xFF, 0xFF, 0xFF, 0x7F, PipeFrame.Notification];
        await using var server = ScriptedPipeServer.Start(async (_, stream) =>
        {
            await ScriptedPipeServer.ReadRequestAsync(stream);
            await stream.WriteAsync(subscribed);
            await stream.WriteAsync(bad);
            await ScriptedPipeServer.WaitForCloseAsync(stream);
        });
        await using var client = new PipesClientProvider(new PipesClientOptions { MaxMessageSize = 1000 }).CreatePushClient(server.Path);
        var subscription = await client.SubscribeAsync("news", _ => { }).Bounded();

        var ended = await Assert.ThrowsAsync<PushSubscriptionEndedException>(() => subscription.Completion).Bounded();

        var why = unaskedReply
            ? "The server sent a reply (code 0) nobody asked for."
            : "A frame of 2147483647 bytes exceeds the pipes client's limit of 1000 bytes.";
        Assert.Equal($"The pipes push connection to '{server.Path}' closed: {why}", ended.Message);
        Assert.IsType<InvalidDataException>(ended.InnerException);
    }

    [Fact]
    public async Task APublicationOverTheClientsLimit_IsQuotaExceeded_AndNothingIsSent()
    {
        await using var server = ScriptedPipeServer.Start((_, stream) => ScriptedPipeServer.WaitForCloseAsync(stream));
        await using var client = new PipesClientProvider(new PipesClientOptions { MaxMessageSize = 100 }).CreatePushClient(server.Path);

        var error = await Assert.ThrowsAsync<RpcServiceException>(() => client.PublishAsync(new Notification { Topic = "t", Items = [new string('x', 100)] })).Bounded();

        Assert.Equal(RpcErrorCode.QuotaExceeded, error.Code);
        Assert.Equal("The request of 141 bytes exceeds the pipes client's limit of 100 bytes; nothing was sent.", error.Message);
        Assert.Equal(0, server.Accepted);
    }

    [Fact]
    public async Task APublicationOfExactlyTheClientsLimit_IsSent()
    {
        await using var server = await TestPipeServer.StartAsync(configurePush: _ => { });
        await using var client = new PipesClientProvider(new PipesClientOptions { MaxMessageSize = 141 }).CreatePushClient(server.Path);

        // 141 bytes encoded, as above (the two empty trace strings are 8 of them): at the limit, not over it.
        var reply = await client.PublishAsync(new Notification { Topic = "t", Items = [new string('x', 100)] }).Bounded();

        Assert.Equal(0, reply.Queued);
    }

    [Fact]
    public async Task SubscribingToNoTopic_IsRefusedByTheServer()
    {
        await using var server = await TestPipeServer.StartAsync(configurePush: _ => { });
        await using var client = _provider.CreatePushClient(server.Path);

        var error = await Assert.ThrowsAsync<RpcServiceException>(() => client.SubscribeAsync(null!, _ => { })).Bounded();

        Assert.Equal(RpcErrorCode.InvalidArgument, error.Code);
    }

    [Fact]
    public async Task AnEndedSubscription_CompletesQuietly_AndItsTopicCanBeSubscribedAgain()
    {
        await using var server = await TestPipeServer.StartAsync(configurePush: _ => { });
        await using var client = _provider.CreatePushClient(server.Path);
        var first = await client.SubscribeAsync("news", _ => { }).Bounded();

        await first.DisposeAsync();
        await first.Completion.Bounded();
        await using var again = await client.SubscribeAsync("news", _ => { }).Bounded();

        Assert.Equal(1, server.Topics!.Statistics.Subscribers);
    }

    [Fact]
    public async Task NoServer_IsAnIOException_SayingWhereAndHowLongItTried()
    {
        using var directory = new TemporaryDirectory();
        var path = directory.PathFor("nobody.sock");
        await using var client = new PipesClientProvider(new PipesClientOptions { ConnectTimeout = TimeSpan.FromMilliseconds(300) }).CreatePushClient(path);

        var error = await Assert.ThrowsAsync<IOException>(() => client.SubscribeAsync("news", _ => { })).Bounded();

        Assert.StartsWith($"Could not connect to the pipes server at '{path}' within 0.3 s: ", error.Message, StringComparison.Ordinal);
        // The refused subscription is forgotten: the topic can be asked for again.
        await Assert.ThrowsAsync<IOException>(() => client.SubscribeAsync("news", _ => { })).Bounded();
    }

    [Fact]
    public async Task Disposed_TheClientEndsItsSubscriptionsQuietly_AndRefusesCalls()
    {
        await using var server = await TestPipeServer.StartAsync(configurePush: _ => { });
        var client = _provider.CreatePushClient(server.Path);
        var subscription = await client.SubscribeAsync("news", _ => { }).Bounded();

        await client.DisposeAsync().AsTask().Bounded();

        await subscription.Completion.Bounded();
        await Assert.ThrowsAsync<ObjectDisposedException>(() => client.PublishAsync(new Notification { Topic = "news" })).Bounded();
        await client.DisposeAsync().AsTask().Bounded();
    }

    [Fact]
    public async Task AVariantThePipesBindingDoesNotOffer_IsRefused()
    {
        var error = Assert.Throws<ArgumentException>(() => _provider.CreatePushClient("/tmp/x.sock", "stream"));

        Assert.Equal(["frames"], _provider.PushVariants);
        Assert.StartsWith("Binding 'pipes' has no push variant 'stream'; it offers: frames.", error.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentException>(() => _provider.CreatePushClient("", null));
    }

    private static byte[] Topic(string topic) => [.. Le32(Encoding.UTF8.GetByteCount(topic)), .. Encoding.UTF8.GetBytes(topic)];

    // A subscribe or unsubscribe request: the topic, then After (-1: not given, nothing to resume).
    private static byte[] Subscription(string topic) => [.. Topic(topic), .. Le64(-1)];

    private static byte[] Le64(long value)
    {
        var bytes = new byte[8];
        BinaryPrimitives.WriteInt64LittleEndian(bytes, value);
        return bytes;
    }

    private static byte[] Reply(byte status, byte[] body) => [.. Le32(body.Length), status, .. body];

    private static byte[] Le32(int value)
    {
        var bytes = new byte[4];
        BinaryPrimitives.WriteInt32LittleEndian(bytes, value);
        return bytes;
    }
}
