using System.Net.Sockets;
using RpcCompare.Bindings.Fast.Client;
using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Bindings.Fast.Transport;
using RpcCompare.Contracts;
using RpcCompare.Protobuf.Messages;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>
/// A client's Task-form calls share one connection, told apart by call id: the caller's thread is
/// not held, replies come back in whatever order the service finishes, and a connection that
/// fails fails every call waiting on it with the reason and is replaced for the next.
/// </summary>
public sealed class MultiplexingTests
{
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(10);

    [Fact]
    public async Task ConcurrentCalls_ShareOneConnection_AndEachGetsItsOwnReply_InWhateverOrderTheyFinish()
    {
        await using var server = await TestFastServer.StartAsync();
        var probe = server.Client<IProbe>();

        // Returned unfinished: the caller's thread is not waiting for the reply.
        var calls = Enumerable.Range(1, 5).Select(probe.LaterAsync).ToArray();
        Assert.All(calls, c => Assert.False(c.IsCompleted));
        await Eventually.HoldsAsync(() => Enumerable.Range(1, 5).All(server.Probe.IsWaiting), Settle, () => "the calls never reached the service");
        foreach (var key in new[] { 4, 2, 5, 1, 3 })
        {
            server.Probe.Release(key);
            Assert.Equal(key * 10, await calls[key - 1].WaitAsync(Settle));
        }

        Assert.Equal(1, server.Server.OpenConnections);
    }

    [Fact]
    public async Task ALiveIdleSharedConnection_IsNotTakenForClosed_NorOneWithACallOnIt()
    {
        await using var server = await TestFastServer.StartAsync();
        using var pool = new FastConnectionPool(FastEndpoint.Parse(BindingNames.FastUds, server.Path), new FastClientOptions());
        var connection = pool.Multiplexed();
        var contract = FastContract.For(typeof(IProbe));
        await connection.CallAsync<EmptyMessage, EmptyMessage, EmptyMessage>(contract, 0, contract.Messages.Operations[0].Description, EmptyMessage.Instance,
            _ => EmptyMessage.Instance, (reply, _) => reply, [], CancellationToken.None).WaitAsync(Settle);

        Assert.False(connection.ClosedWhileIdle(TimeSpan.Zero));
        Assert.Same(connection, pool.Multiplexed());
        Assert.False(connection.ClosedWhileIdle(TimeSpan.FromHours(1)));
    }

    [Fact]
    public async Task TheSharedConnection_ClosedAsIdleByTheServer_IsReplacedForTheNextCall()
    {
        // Whichever sees the close first, the reader (if it was watching) or the pool's look before handing the
        // connection out again (if it had stood down, as it does while callers read their own replies).
        await using var server = await TestFastServer.StartAsync(o => { o.IdleTimeout = TimeSpan.FromMilliseconds(200); o.FrameTimeout = TimeSpan.FromMilliseconds(100); });
        var probe = server.Client<IProbe>(new FastClientOptions { IdleCheckAfter = TimeSpan.Zero });
        Assert.Equal(1, await probe.EchoAsync(1).WaitAsync(Settle));

        await Eventually.HoldsAsync(() => server.Log.Matching("closed: idle").Count == 1, Settle, () => string.Join("\n", server.Log.Lines));

        Assert.Equal(2, await probe.EchoAsync(2).WaitAsync(Settle));
        Assert.Equal(3, await probe.EchoAsync(3).WaitAsync(Settle));
    }

    [Fact]
    public async Task SixtyFourCallersAtOnce_EachGetTheirOwnAnswers_OnOneConnection()
    {
        await using var server = await TestFastServer.StartAsync();
        var probe = server.Client<IProbe>();

        var callers = Enumerable.Range(0, 64).Select(caller => Task.Run(async () =>
        {
            for (var i = 0; i < 50; i++)
            {
                var text = $"{caller}:{i}";
                Assert.Equal(caller * 1000 + i, await probe.EchoAsync(caller * 1000 + i));
                Assert.Equal(text, await probe.SendAsync(text));
            }
        }));
        await Task.WhenAll(callers).WaitAsync(TimeSpan.FromSeconds(60));

        Assert.Equal(1, server.Server.OpenConnections);
    }

    [Fact]
    public async Task AContinuationThatBlocks_DoesNotStopOtherReplies()
    {
        await using var server = await TestFastServer.StartAsync();
        var probe = server.Client<IProbe>();

        // Asked to run where the first reply completes its task: were that the connection's reader,
        // waiting there for a second reply on the same connection would wait forever.
        var second = await probe.EchoAsync(1).ContinueWith(
            first => probe.EchoAsync(first.Result + 1).Wait(Settle), CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default)
            .WaitAsync(Settle * 2);

        Assert.True(second);
    }

    [Fact]
    public async Task OnCallerThread_RunsTheTaskFormOnTheCallersThread_AndReturnsItDone()
    {
        await using var server = await TestFastServer.StartAsync();
        var probe = server.Client<IProbe>(new FastClientOptions { TaskCalls = FastTaskCalls.OnCallerThread });

        var call = Task.Run(() => probe.LaterAsync(1));
        await Eventually.HoldsAsync(() => server.Probe.IsWaiting(1), Settle, () => "the call never reached the service");
        // The thread that called is still inside the call: Task.Run's task is not done either.
        Assert.False(call.IsCompleted);
        server.Probe.Release(1);
        var done = await call.WaitAsync(Settle);
        Assert.Equal(10, done);
    }

    [Fact]
    public async Task AConnectionTheServerRefuses_FailsEveryWaitingCallWithItsReason_AndTheNextCallGetsANewOne()
    {
        // The server takes 1 KiB, the client 1 MiB: the server answers the large request for the whole connection and closes it.
        await using var server = await TestFastServer.StartAsync(o => o.MaxMessageSize = 1024);
        var probe = server.Client<IProbe>();
        var waiting = probe.LaterAsync(1);
        await Eventually.HoldsAsync(() => server.Probe.IsWaiting(1), Settle, () => "the call never reached the service");

        var large = await Assert.ThrowsAsync<RpcServiceException>(() => probe.SendAsync(new string('x', 4096)).WaitAsync(Settle));
        var other = await Assert.ThrowsAsync<RpcServiceException>(() => waiting.WaitAsync(Settle));

        Assert.Equal(RpcErrorCode.QuotaExceeded, large.Code);
        Assert.Contains("over the server's limit of 1,024 bytes", large.Message, StringComparison.Ordinal);
        Assert.Equal(large.Message, other.Message);
        Assert.Equal(7, await probe.EchoAsync(7).WaitAsync(Settle));
    }

    [Fact]
    public async Task ARefusalReadBeforeTheFirstCallIsWritten_IsStillThatCallsError()
    {
        await using var server = await TestFastServer.StartAsync(o => o.MaxConnections = 1);
        using var holder = new RawFastConnection(server.Path);
        holder.Bind<IProbe>();
        using var pool = new FastConnectionPool(FastEndpoint.Parse(BindingNames.FastUds, server.Path), new FastClientOptions());
        var connection = pool.Multiplexed();
        // The server refuses at once: its reader has the reason before any call is made.
        await Eventually.HoldsAsync(() => connection.IsBroken, Settle, () => "the refusal never arrived");

        var contract = FastContract.For(typeof(IProbe));
        var refused = await Assert.ThrowsAsync<RpcServiceException>(() => connection.CallAsync<EmptyMessage, EmptyMessage, EmptyMessage>(
            contract, 0, contract.Messages.Operations[0].Description, EmptyMessage.Instance, _ => EmptyMessage.Instance, (reply, _) => reply, [], CancellationToken.None)
            .WaitAsync(Settle));

        Assert.Equal(RpcErrorCode.QuotaExceeded, refused.Code);
        Assert.Contains("limit of 1 connections (FastUds:MaxConnections)", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AReplyOverTheClientsLimit_FailsItsCallAsQuota_AndTheOthersWithWhy()
    {
        await using var server = await TestFastServer.StartAsync();
        var probe = server.Client<IProbe>(new FastClientOptions { MaxMessageSize = 1024 });
        var waiting = probe.LaterAsync(1);
        await Eventually.HoldsAsync(() => server.Probe.IsWaiting(1), Settle, () => "the call never reached the service");

        var large = await Assert.ThrowsAsync<RpcServiceException>(() => probe.BytesAsync(4096).WaitAsync(Settle));
        var other = await Assert.ThrowsAsync<IOException>(() => waiting.WaitAsync(Settle));

        Assert.Equal(RpcErrorCode.QuotaExceeded, large.Code);
        Assert.Contains("over the client's limit of 1,024 bytes (FastClientOptions.MaxMessageSize)", large.Message, StringComparison.Ordinal);
        Assert.Contains("after a reply over the client's limit", other.Message, StringComparison.Ordinal);
        Assert.Equal(8, await probe.EchoAsync(8).WaitAsync(Settle));
    }

    [Fact]
    public async Task ARequestOverTheClientsLimit_IsRefusedBeforeSending_AndTheConnectionServesOn()
    {
        await using var server = await TestFastServer.StartAsync();
        var probe = server.Client<IProbe>(new FastClientOptions { MaxMessageSize = 1024 });
        Assert.Equal(1, await probe.EchoAsync(1));

        var refused = await Assert.ThrowsAsync<RpcServiceException>(() => probe.SendAsync(new string('x', 4096)));

        Assert.Equal(RpcErrorCode.QuotaExceeded, refused.Code);
        Assert.Contains("nothing was sent", refused.Message, StringComparison.Ordinal);
        Assert.Equal(2, await probe.EchoAsync(2));
        Assert.Equal(1, server.Server.OpenConnections);
    }

    [Fact]
    public async Task AServiceError_FailsOnlyItsCall()
    {
        await using var server = await TestFastServer.StartAsync();
        var probe = server.Client<IProbe>();
        var waiting = probe.LaterAsync(1);

        var refused = await Assert.ThrowsAsync<RpcServiceException>(() => probe.RefuseAsync((int)RpcErrorCode.PermissionDenied).WaitAsync(Settle));

        Assert.Equal(RpcErrorCode.PermissionDenied, refused.Code);
        server.Probe.Release(1);
        Assert.Equal(10, await waiting.WaitAsync(Settle));
        Assert.Equal(1, server.Server.OpenConnections);
    }

    [Fact]
    public async Task ADisposedProvider_FailsItsWaitingCalls_AndRefusesNewOnes()
    {
        await using var server = await TestFastServer.StartAsync();
        var provider = new FastClientProvider();
        var probe = provider.Create<IProbe>(server.Path);
        var waiting = probe.LaterAsync(1);
        await Eventually.HoldsAsync(() => server.Probe.IsWaiting(1), Settle, () => "the call never reached the service");

        provider.Dispose();

        await Assert.ThrowsAsync<ObjectDisposedException>(() => waiting.WaitAsync(Settle));
        await Assert.ThrowsAsync<ObjectDisposedException>(() => probe.EchoAsync(1));
        Assert.Throws<ObjectDisposedException>(() => probe.Echo(1));
        await Eventually.HoldsAsync(() => server.Server.OpenConnections == 0, Settle, () => $"{server.Server.OpenConnections} connections still open");
    }

    [Fact]
    public async Task AServersAnswer_ThatArrivesAsTheRequestsSendFails_ReachesTheCaller_RoundAfterRound()
    {
        // A server that answers an over-limit request and closes at once, without draining (as the binding's
        // own server did before it drained): the client's send fails about when the answer arrives, and
        // whichever comes first, the call must end with the answer, never wait for ever or fail vaguely.
        using var directory = new TemporaryDirectory();
        var path = directory.PathFor("abrupt.sock");
        using var listener = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        listener.Bind(new UnixDomainSocketEndPoint(path));
        listener.Listen();
        var probe = new FastClientProvider(BindingNames.FastUds, new FastClientOptions()).Create<IProbe>(path);

        for (var round = 0; round < 10; round++)
        {
            var call = Task.Run(() => probe.SendAsync(new string('x', 8 * 1024 * 1024)));
            using (var accepted = await listener.AcceptAsync().WaitAsync(Settle))
            {
                AnswerBindThenRefuseTheRequest(accepted);
            }

            var error = await Assert.ThrowsAsync<RpcServiceException>(() => call.WaitAsync(Settle));
            Assert.Equal(RpcErrorCode.QuotaExceeded, error.Code);
        }
    }

    // Binds every operation asked for, reads the next frame's header only, answers it QuotaExceeded for the connection.
    private static void AnswerBindThenRefuseTheRequest(Socket accepted)
    {
        using var reader = new FrameReader(new SocketTransport(accepted), 64 * 1024);
        using var writer = new FrameWriter();
        Assert.True(reader.TryRead(out var bind, out var body));
        var operations = Body.ReadProtocol<BindBody>(body).Operations;
        Body.WriteProtocol(writer, new BoundBody { Ids = [.. operations.Select((_, i) => (uint)(16 + i))] });
        Send(accepted, writer.Complete(FrameKind.Bound, 0, bind.CallId));
        Assert.Throws<FrameTooLargeException>(() => reader.TryRead(out _, out _));
        writer.Reset();
        Body.WriteProtocol(writer, new ErrorBody { Code = (int)RpcErrorCode.QuotaExceeded, Message = "over this test server's limit" });
        Send(accepted, writer.Complete(FrameKind.Error, 0, 0));
    }

    private static void Send(Socket socket, ReadOnlySpan<byte> bytes)
    {
        while (!bytes.IsEmpty)
        {
            bytes = bytes[socket.Send(bytes)..];
        }
    }
}

