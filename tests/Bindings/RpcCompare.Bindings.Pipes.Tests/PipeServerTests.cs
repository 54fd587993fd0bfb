using System.IO.Pipes;
using System.Net.Sockets;
using Microsoft.Extensions.Configuration;
using RpcCompare.Bindings.Pipes.Client;
using RpcCompare.Bindings.Pipes.Protocol;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Pipes.Tests;

/// <summary>
/// The server's life and what it says about each connection: settings checked before it binds,
/// a left-behind socket file taken over, one log line per event (and one per stretch at the
/// connection limit), a failing service answered as Internal, and nothing left once disposed.
/// </summary>
public sealed class PipeServerTests
{
    [Theory]
    [InlineData(null, "The pipes binding needs an absolute socket path (Pipes:Path); got ''.")]
    [InlineData("", "The pipes binding needs an absolute socket path (Pipes:Path); got ''.")]
    [InlineData("pipes.sock", "The pipes binding needs an absolute socket path (Pipes:Path); got 'pipes.sock'.")]
    public async Task ASocketPathThatIsNotAbsolute_IsRefusedAtStart(string? path, string message)
    {
        await using var server = new TestPipeServer(o => o.Path = path);

        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => server.Hosted.StartAsync(CancellationToken.None));

        Assert.Equal(message, error.Message);
    }

    [Theory]
    [InlineData(0, null, "Pipes:MaxMessageSize must be positive; got 0.")]
    [InlineData(-1, null, "Pipes:MaxMessageSize must be positive; got -1.")]
    [InlineData(1, 0, "Pipes:MaxConnections must be positive; got 0.")]
    public async Task LimitsThatAreNotPositive_AreRefusedAtStart(int maxMessageSize, int? maxConnections, string message)
    {
        await using var server = new TestPipeServer(o => (o.MaxMessageSize, o.MaxConnections) = (maxMessageSize, maxConnections));

        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => server.Hosted.StartAsync(CancellationToken.None));

        Assert.Equal(message, error.Message);
        Assert.False(File.Exists(server.Path));
    }

    [Fact]
    public async Task SettingsComeFromThePipesSection_ThenCode()
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(new Dictionary<string, string?> { ["Pipes:MaxMessageSize"] = "1000" })
            .Build();
        await using var server = new TestPipeServer(configuration: configuration);
        await server.Hosted.StartAsync(CancellationToken.None).Bounded();
        await using var raw = await RawPipeConnection.ConnectAsync(server.Path);

        await raw.SendAsync(RawPipeConnection.Frame(1001, (byte)OperationCode.EchoBytes, new byte[1001]));
        var reply = await raw.ReadReplyAsync();

        Assert.Equal(server.Path, server.Server.Address);
        Assert.Contains("limit of 1000 bytes", reply!.Value.Message, StringComparison.Ordinal);
        await server.Hosted.StopAsync(CancellationToken.None).Bounded();
    }

    [Fact]
    public async Task Started_ItLogsWhereItListens_Once()
    {
        await using var server = await TestPipeServer.StartAsync();

        Assert.Equal([$"Information RpcCompare.Bindings.Pipes.Server.PipeServer: Binding pipes listening on {server.Path}"], server.Log.Matching("listening on"));
    }

    [Fact]
    public async Task ASocketFileLeftByAKilledServer_IsTakenOver()
    {
        await using var server = new TestPipeServer();
        using (var leftBehind = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified))
        {
            // Bound, never listening, and the file kept: what a SIGKILLed server leaves.
            leftBehind.Bind(new UnixDomainSocketEndPoint(server.Path));
        }

        await server.Hosted.StartAsync(CancellationToken.None).Bounded();
        await using var raw = await RawPipeConnection.ConnectAsync(server.Path);

        Assert.Equal(PipeFrame.Success, await raw.PingAsync());
    }

    [Fact]
    public async Task ASecondServerOnALiveServersSocket_IsRefused_AndTheFirstKeepsServing()
    {
        await using var first = await TestPipeServer.StartAsync();
        var second = new TestPipeServer(o => o.Path = first.Path);

        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => second.Hosted.StartAsync(CancellationToken.None));
        await using var raw = await RawPipeConnection.ConnectAsync(first.Path);

        Assert.Contains("is the socket of a server that is still running", error.Message, StringComparison.Ordinal);
        Assert.Equal(PipeFrame.Success, await raw.PingAsync());
        await second.DisposeAsync();
    }

    [Fact]
    public async Task AConnectionThatCloses_EndsItsSubscriptions()
    {
        await using var server = await TestPipeServer.StartAsync(configurePush: _ => { });
        var topics = server.Topics!;
        await using (var raw = await RawPipeConnection.ConnectAsync(server.Path))
        {
            await raw.SendAsync(RawPipeConnection.Frame(16, (byte)OperationCode.Subscribe, [4, 0, 0, 0, .. "news"u8, .. Enumerable.Repeat((byte)0xFF, 8)]));
            Assert.Equal(PipeFrame.Success, (await raw.ReadReplyAsync())!.Value.Status);
            Assert.Equal(1, topics.Statistics.Subscribers);
        }

        using var timeout = new CancellationTokenSource(TestTimeout.Default);
        while (topics.Statistics.Subscribers > 0)
        {
            await Task.Delay(10, timeout.Token);
        }
    }

    [Fact]
    public async Task AConnection_IsLoggedOpenedAndClosed_AtDebug()
    {
        await using var server = await TestPipeServer.StartAsync();

        await (await RawPipeConnection.ConnectAsync(server.Path)).DisposeAsync();

        Assert.Equal(["Debug RpcCompare.Bindings.Pipes.Server.PipeServer: Connection 1 closed by the client"], await server.LoggedAsync("closed by the client"));
        Assert.Equal(["Debug RpcCompare.Bindings.Pipes.Server.PipeServer: Connection 1 opened"], server.Log.Matching("opened"));
    }

    [Fact]
    public async Task APeerLeavingInsideAFrame_IsLoggedOnce_AsATruncatedFrame()
    {
        await using var server = await TestPipeServer.StartAsync();
        await using (var raw = await RawPipeConnection.ConnectAsync(server.Path))
        {
            await raw.SendAsync(RawPipeConnection.Frame(10, (byte)OperationCode.EchoBytes, [1, 2]));
        }

        Assert.Equal(["Debug RpcCompare.Bindings.Pipes.Server.PipeServer: Connection 1 ended in the middle of a frame; dropped it"], await server.LoggedAsync("middle of a frame"));
        Assert.Empty(server.Log.Matching("closed by the client"));
    }

    [Fact]
    public async Task AServiceThatFails_IsAnsweredInternal_WithItsMessage_AndLoggedOnceWithTheException()
    {
        await using var server = await TestPipeServer.StartAsync();
        server.Services.ReturnIntFailure = new InvalidOperationException("boom");
        var client = new PipesClientProvider().Create<ICallShapeService>(server.Path);

        var error = await Assert.ThrowsAsync<RpcServiceException>(() => client.ReturnIntAsync()).Bounded();
        await client.VoidCallAsync().Bounded();

        Assert.Equal((RpcErrorCode.Internal, "The service failed: boom"), (error.Code, error.Message));
        Assert.Equal(["Error RpcCompare.Bindings.Pipes.Server.PipeServer: Operation 0x12 on connection 1 failed"], server.Log.Matching("failed"));
        await ((IAsyncDisposable)client).DisposeAsync();
    }

    [Fact]
    public async Task AServiceRefusal_IsAnsweredWithItsCode_AndNotLoggedAsAFailure()
    {
        await using var server = await TestPipeServer.StartAsync();
        server.Services.ReturnIntFailure = new RpcServiceException(RpcErrorCode.NotFound, "nothing here");
        var client = new PipesClientProvider().Create<ICallShapeService>(server.Path);

        var error = await Assert.ThrowsAsync<RpcServiceException>(() => client.ReturnIntAsync()).Bounded();

        Assert.Equal((RpcErrorCode.NotFound, "nothing here"), (error.Code, error.Message));
        Assert.Empty(server.Log.Matching("failed"));
        await ((IAsyncDisposable)client).DisposeAsync();
    }

    [Fact]
    public async Task Subscribing_OnAHostWithoutPublishSubscribe_IsNotFound()
    {
        await using var server = await TestPipeServer.StartAsync();
        await using var raw = await RawPipeConnection.ConnectAsync(server.Path);

        await raw.SendAsync(RawPipeConnection.Frame(5, (byte)OperationCode.Subscribe, [1, 0, 0, 0, (byte)'t']));
        var reply = await raw.ReadReplyAsync();

        Assert.Equal(((byte)RpcErrorCode.NotFound, "This host serves no publish/subscribe (no topic registry was added)."), (reply!.Value.Status, reply.Value.Message));
    }

    [Fact]
    public async Task CallsOnSeveralConnections_AreInFlightOnTheServerAtOnce()
    {
        // Each call waits inside the service until all three are there: a server that served one
        // connection after another would never let the first one finish.
        const int Clients = 3;
        await using var server = await TestPipeServer.StartAsync();
        var inFlight = 0;
        var allIn = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        server.Services.BeforeReturnInt = () =>
        {
            if (Interlocked.Increment(ref inFlight) == Clients)
            {
                allIn.SetResult();
            }

            return allIn.Task;
        };
        var clients = Enumerable.Range(0, Clients).Select(_ => new PipesClientProvider().Create<ICallShapeService>(server.Path)).ToList();

        var replies = await Task.WhenAll(clients.Select(c => c.ReturnIntAsync())).Bounded();

        Assert.All(replies, r => Assert.Equal(99, r.Value));
        Assert.Equal(Clients, inFlight);
        foreach (var client in clients)
        {
            await ((IAsyncDisposable)client).DisposeAsync();
        }
    }

    [Fact]
    public async Task Disposed_TheServerRemovesItsSocket_AndMayBeDisposedAgain()
    {
        var server = await TestPipeServer.StartAsync();
        await using var raw = await RawPipeConnection.ConnectAsync(server.Path);
        Assert.Equal(PipeFrame.Success, await raw.PingAsync());

        await ((IAsyncDisposable)server.Server).DisposeAsync();
        await ((IAsyncDisposable)server.Server).DisposeAsync();

        Assert.False(File.Exists(server.Path));
        using var client = new NamedPipeClientStream(".", server.Path, PipeDirection.InOut);
        await Assert.ThrowsAnyAsync<Exception>(() => client.ConnectAsync(200)).Bounded();
        await server.DisposeAsync();
    }

    [Fact]
    public async Task Stopped_TheServerEndsItsConnections_AndRemovesItsSocket()
    {
        await using var server = await TestPipeServer.StartAsync();
        await using var raw = await RawPipeConnection.ConnectAsync(server.Path);
        Assert.Equal(PipeFrame.Success, await raw.PingAsync());

        await server.Hosted.StopAsync(CancellationToken.None).Bounded();

        Assert.True(await raw.IsClosedByServerAsync());
        Assert.False(File.Exists(server.Path));
    }
}
