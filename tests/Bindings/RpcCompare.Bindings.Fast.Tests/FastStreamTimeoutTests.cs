using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Bindings.Fast.Client;
using RpcCompare.Service;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>
/// A streamed call is bounded by the call timeout and the caller's token as any call is: up to its
/// reply (a request stream's sending included) and at each wait of its reply stream. Either closes
/// the call's connection, which cancels the service's token; the caller's next call gets a new one.
/// </summary>
public sealed class FastStreamTimeoutTests
{
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(10);
    // Long enough that a loaded machine's connect, bind and first chunk (and the Echo after each timeout, on the
    // same options) stay within it; the stalls the tests make last far longer.
    private static readonly TimeSpan CallTimeout = TimeSpan.FromSeconds(1);

    [Fact]
    public async Task AReplyStreamThatStalls_FailsItsRead_AfterTheCallTimeout_AndTheNextCallWorks()
    {
        var (server, service) = await StartAsync();
        await using var _ = server;
        var streams = server.Client<IStalledStreams>(new FastClientOptions { CallTimeout = CallTimeout });
        try
        {
            using var trickle = streams.Trickle();
            var buffer = new byte[StalledStreams.FirstChunk];
            Assert.Equal(StalledStreams.FirstChunk, trickle.Read(buffer));

            // Its asynchronous read reports the timeout in the task it returns: thrown from the call, it would fail the
            // Task.Run here instead.
            Task<int>? read = null;
            await Task.Run(() => { read = trickle.ReadAsync(buffer).AsTask(); }).WaitAsync(Settle);
            var timedOut = await Assert.ThrowsAsync<TimeoutException>(() => read!);

            Assert.Equal("The reply stream of Trickle sent nothing for 1,000 ms (FastClientOptions.CallTimeout); its connection was closed.", timedOut.Message);
            Assert.Equal(5, streams.Echo(5));

            // The server's thread is in the service's stream until it yields; then its next send finds the connection closed.
            service.Release();
            await Eventually.HoldsAsync(() => server.Server.OpenConnections == 1, Settle, () => $"{server.Server.OpenConnections} connections open: the stalled stream's was not closed");
        }
        finally
        {
            service.Release();
        }
    }

    [Fact]
    public async Task AReplyStreamsReadCancelledByItsToken_IsOperationCanceled_WithThatToken()
    {
        var (server, service) = await StartAsync();
        await using var _ = server;
        var streams = server.Client<IStalledStreams>();
        try
        {
            await using var trickle = streams.Trickle();
            var buffer = new byte[StalledStreams.FirstChunk];
            Assert.Equal(StalledStreams.FirstChunk, await trickle.ReadAsync(buffer));
            using var cancellation = new CancellationTokenSource();

            // Armed just before the read, for well after it has begun to wait (a token cancelled before the read
            // would be refused at once, without the wait this is about).
            Task<int>? read = null;
            await Task.Run(() =>
            {
                cancellation.CancelAfter(TimeSpan.FromMilliseconds(500));
                read = trickle.ReadAsync(buffer, cancellation.Token).AsTask();
            }).WaitAsync(Settle);
            var cancelled = await Assert.ThrowsAnyAsync<OperationCanceledException>(() => read!);

            Assert.True(read!.IsCanceled, $"the read's task is {read.Status}, not Canceled");
            Assert.Equal(cancellation.Token, cancelled.CancellationToken);
            Assert.Equal("The streamed call was cancelled; its connection was closed.", cancelled.Message);
            Assert.Equal(6, streams.Echo(6));
        }
        finally
        {
            service.Release();
        }
    }

    [Fact]
    public async Task AStreamedCallWhoseReplyNeverComes_IsATimeoutException_AndTheServiceIsCancelled()
    {
        var (server, service) = await StartAsync();
        await using var _ = server;
        var streams = server.Client<IStalledStreams>(new FastClientOptions { CallTimeout = CallTimeout });

        var timedOut = await Assert.ThrowsAsync<TimeoutException>(() => Task.Run(() => streams.NeverAsync(CancellationToken.None)).WaitAsync(Settle));

        Assert.Equal("Never did not complete within 1,000 ms (FastClientOptions.CallTimeout); its connection was closed, which cancels it on the server.", timedOut.Message);
        await service.TokenFired.WaitAsync(Settle);
        Assert.Equal(7, streams.Echo(7));
    }

    [Fact]
    public async Task AStreamedCallCancelledByTheCaller_IsOperationCanceled_AndTheServiceIsCancelled()
    {
        var (server, service) = await StartAsync();
        await using var _ = server;
        var streams = server.Client<IStalledStreams>();
        using var cancellation = new CancellationTokenSource();

        var call = Task.Run(() => streams.ReadFirstByteAsync(new MemoryStream([42, 43]), cancellation.Token));
        await service.Waiting.WaitAsync(Settle);
        await cancellation.CancelAsync();
        var cancelled = await Assert.ThrowsAnyAsync<OperationCanceledException>(() => call.WaitAsync(Settle));

        Assert.Equal(cancellation.Token, cancelled.CancellationToken);
        Assert.Equal("The streamed call was cancelled; its connection was closed.", cancelled.Message);
        await service.TokenFired.WaitAsync(Settle);
        Assert.Equal(8, streams.Echo(8));
    }

    [Fact]
    public async Task ARequestStreamTheServerStopsReading_IsBoundedByTheCallTimeout()
    {
        var (server, service) = await StartAsync();
        await using var _ = server;
        var streams = server.Client<IStalledStreams>(new FastClientOptions { CallTimeout = CallTimeout });

        // The service reads one byte; the server buffers a megabyte more, then stops reading the socket, and the send blocks.
        var timedOut = await Assert.ThrowsAsync<TimeoutException>(() => Task.Run(() => streams.ReadFirstByteAsync(new PatternStream(long.MaxValue), CancellationToken.None)).WaitAsync(Settle));

        Assert.StartsWith("ReadFirstByte did not complete within 1,000 ms", timedOut.Message, StringComparison.Ordinal);
        Assert.Equal(9, streams.Echo(9));

        // The server's connection thread, waiting for the service to read on with the request's bytes before the
        // hang-up still unread, sees the hang-up all the same: the service is cancelled and the connection closed.
        await service.TokenFired.WaitAsync(Settle);
        await Eventually.HoldsAsync(() => server.Server.OpenConnections == 1, Settle, () => $"{server.Server.OpenConnections} connections open: the timed-out call's was not closed");
        Assert.Single(server.Log.Matching("hung up while its request stream waited"));
    }

    [Fact]
    public async Task AStreamedCall_WithNeitherTimeoutNorToken_StillWaitsForItsReply()
    {
        var (server, service) = await StartAsync();
        await using var _ = server;
        var streams = server.Client<IStalledStreams>();

        var call = Task.Run(() => streams.NeverAsync(CancellationToken.None));
        await service.Waiting.WaitAsync(Settle);
        Assert.False(call.IsCompleted, "a streamed call without a timeout ended on its own");

        service.Release();
        await using var reply = await call.WaitAsync(Settle);
        Assert.Equal(-1, reply.ReadByte());
    }

    private static async Task<(TestFastServer Server, StalledStreams Service)> StartAsync()
    {
        var service = new StalledStreams();
        return (await TestFastServer.StartAsync(register: s => s.AddSingleton(service).AddRpcService<IStalledStreams, StalledStreams>()), service);
    }
}
