using System.Buffers.Binary;
using System.IO.Pipes;
using RpcCompare.Bindings.Pipes.Client;
using RpcCompare.Bindings.Pipes.Protocol;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Pipes.Tests;

/// <summary>
/// The typed pipes client against a server gone wrong: every failure is a clear error naming the
/// socket, a connection that cannot be trusted any more is dropped, and the next call connects
/// afresh. Also what the client itself promises: one connection for all calls, and nothing after
/// it is disposed.
/// </summary>
public sealed class PipeClientFaultTests
{
    private static readonly byte[] s_answer42 = Reply(PipeFrame.Success, Le32(42));

    [Fact]
    public async Task Calls_ShareOneConnection()
    {
        await using var server = ScriptedPipeServer.Start((_, stream) => AnswerEveryRequestAsync(stream, s_answer42));
        var client = Client(server.Path);

        for (var i = 0; i < 3; i++)
        {
            Assert.Equal(42, (await client.ReturnIntAsync().Bounded()).Value);
        }

        Assert.Equal(1, server.Accepted);
        await Release(client);
    }

    [Fact]
    public async Task AReplyThatDoesNotDecode_IsInvalidData_AndTheNextCallConnectsAfresh()
    {
        // A ReturnInt reply must be exactly 4 bytes; 3 cannot be trusted, nor anything after them.
        await using var server = ScriptedPipeServer.Start((n, stream) => AnswerEveryRequestAsync(stream, n == 1 ? Reply(PipeFrame.Success, [1, 2, 3]) : s_answer42));
        var client = Client(server.Path);

        var error = await Assert.ThrowsAsync<InvalidDataException>(() => client.ReturnIntAsync()).Bounded();
        var next = await client.ReturnIntAsync().Bounded();

        Assert.StartsWith($"The reply from the pipes server at '{server.Path}' does not decode: ", error.Message, StringComparison.Ordinal);
        Assert.IsType<PipeProtocolException>(error.InnerException);
        Assert.Equal(42, next.Value);
        Assert.Equal(2, server.Accepted);
        await Release(client);
    }

    [Theory]
    [InlineData(0)] // closed before the reply's header
    [InlineData(3)] // inside the header
    [InlineData(7)] // inside the body
    public async Task AServerClosingInsideAReply_IsAnIOExceptionSayingSo_AndTheNextCallConnectsAfresh(int bytesSent)
    {
        var cut = Reply(PipeFrame.Success, Le32(7))[..bytesSent];
        await using var server = ScriptedPipeServer.Start((n, stream) => n == 1 ? AnswerOnceAndCloseAsync(stream, cut) : AnswerEveryRequestAsync(stream, s_answer42));
        var client = Client(server.Path);

        var error = await Assert.ThrowsAsync<IOException>(() => client.ReturnIntAsync()).Bounded();
        var next = await client.ReturnIntAsync().Bounded();

        Assert.Equal($"The pipes connection to '{server.Path}' failed: The server closed the connection in the middle of a reply.", error.Message);
        Assert.IsType<EndOfStreamException>(error.InnerException);
        Assert.Equal(42, next.Value);
        Assert.Equal(2, server.Accepted);
        await Release(client);
    }

    [Fact]
    public async Task AConnectionTheServerClosedBetweenCalls_FailsTheNextCallClearly_AndTheOneAfterConnectsAfresh()
    {
        await using var server = ScriptedPipeServer.Start((n, stream) => n == 1 ? AnswerOnceAndCloseAsync(stream, s_answer42) : AnswerEveryRequestAsync(stream, s_answer42));
        var client = Client(server.Path);
        Assert.Equal(42, (await client.ReturnIntAsync().Bounded()).Value);
        await server.WhenScriptsFinishedAsync();

        var error = await Assert.ThrowsAsync<IOException>(() => client.ReturnIntAsync()).Bounded();
        var next = await client.ReturnIntAsync().Bounded();

        Assert.StartsWith($"The pipes connection to '{server.Path}' failed: ", error.Message, StringComparison.Ordinal);
        Assert.Equal(42, next.Value);
        Assert.Equal(2, server.Accepted);
        await Release(client);
    }

    [Fact]
    public async Task AReplyOverTheClientsLimit_IsQuotaExceeded_AndTheConnectionIsDropped()
    {
        // The header claims 1 MiB; the rest is never sent, so the connection cannot be reused.
        var header = Reply(PipeFrame.Success, [])[..4];
        BinaryPrimitives.WriteInt32LittleEndian(header, 1024 * 1024);
        await using var server = ScriptedPipeServer.Start((n, stream) => n == 1 ? AnswerOnceAndHoldAsync(stream, [.. header, PipeFrame.Success]) : AnswerEveryRequestAsync(stream, s_answer42));
        var client = Client(server.Path, new PipesClientOptions { MaxMessageSize = 1000 });

        var error = await Assert.ThrowsAsync<RpcServiceException>(() => client.ReturnIntAsync()).Bounded();
        var next = await client.ReturnIntAsync().Bounded();

        Assert.Equal(RpcErrorCode.QuotaExceeded, error.Code);
        Assert.Equal("The reply of 1048576 bytes exceeds the pipes client's limit of 1000 bytes.", error.Message);
        Assert.Equal(42, next.Value);
        Assert.Equal(2, server.Accepted);
        await Release(client);
    }

    [Fact]
    public async Task AnErrorReply_IsTheServersCodeAndMessage_AndKeepsTheConnection()
    {
        var refusal = Reply((byte)RpcErrorCode.NotFound, "no such thing"u8.ToArray());
        await using var server = ScriptedPipeServer.Start((_, stream) => AnswerInTurnAsync(stream, refusal, s_answer42));
        var client = Client(server.Path);

        var error = await Assert.ThrowsAsync<RpcServiceException>(() => client.ReturnIntAsync()).Bounded();
        var next = await client.ReturnIntAsync().Bounded();

        Assert.Equal((RpcErrorCode.NotFound, "no such thing"), (error.Code, error.Message));
        Assert.Equal(42, next.Value);
        Assert.Equal(1, server.Accepted);
        await Release(client);
    }

    [Fact]
    public async Task Disposed_TheClientClosesItsConnection_RefusesCalls_AndMayBeDisposedAgain()
    {
        var closed = new TaskCompletionSource();
        await using var server = ScriptedPipeServer.Start(async (_, stream) =>
        {
            await AnswerEveryRequestAsync(stream, s_answer42);
            closed.SetResult();
        });
        var client = Client(server.Path);
        await client.ReturnIntAsync().Bounded();

        await Release(client).AsTask().Bounded();
        await closed.Task.Bounded();
        await Release(client).AsTask().Bounded();

        await Assert.ThrowsAsync<ObjectDisposedException>(() => client.ReturnIntAsync()).Bounded();
        Assert.Equal(1, server.Accepted);
    }

    [Fact]
    public async Task NoServer_IsAnIOException_SayingWhereAndHowLongItTried()
    {
        using var directory = new TemporaryDirectory();
        var path = directory.PathFor("nobody.sock");
        var client = Client(path, new PipesClientOptions { ConnectTimeout = TimeSpan.FromMilliseconds(300) });

        var error = await Assert.ThrowsAsync<IOException>(() => client.ReturnIntAsync()).Bounded();

        Assert.StartsWith($"Could not connect to the pipes server at '{path}' within 0.3 s: ", error.Message, StringComparison.Ordinal);
        await Release(client);
    }

    [Fact]
    public void TheProvider_CarriesRpcComparesOwnContractsOnly_AndNeedsAnAddress()
    {
        var provider = new PipesClientProvider();

        var notCarried = Assert.Throws<NotSupportedException>(() => provider.Create<IDisposable>("/tmp/x.sock"));

        Assert.Equal("binding pipes cannot carry contract IDisposable: the pipes binding is the hand-written baseline for RpcCompare's own contracts", notCarried.Message);
        Assert.Throws<ArgumentException>(() => provider.Create<IFileService>(""));
    }

    [Fact]
    public async Task ANullRequest_IsRefusedAtTheClient_NamingIt()
    {
        await using var server = ScriptedPipeServer.Start((_, stream) => ScriptedPipeServer.WaitForCloseAsync(stream));
        var client = new PipesClientProvider().Create<IPayloadService>(server.Path);

        var error = await Assert.ThrowsAsync<ArgumentNullException>(() => client.SendStringAsync(null!)).Bounded();

        Assert.Equal("request", error.ParamName);
        Assert.Equal(0, server.Accepted);
        await ((IAsyncDisposable)client).DisposeAsync();
    }

    private static ICallShapeService Client(string path, PipesClientOptions? options = null) =>
        new PipesClientProvider(options ?? new PipesClientOptions()).Create<ICallShapeService>(path);

    private static ValueTask Release(ICallShapeService client) => ((IAsyncDisposable)client).DisposeAsync();

    private static async Task AnswerEveryRequestAsync(NamedPipeServerStream stream, byte[] reply)
    {
        while (await ScriptedPipeServer.ReadRequestAsync(stream) is not null)
        {
            await stream.WriteAsync(reply);
        }
    }

    private static async Task AnswerInTurnAsync(NamedPipeServerStream stream, params byte[][] replies)
    {
        foreach (var reply in replies)
        {
            if (await ScriptedPipeServer.ReadRequestAsync(stream) is null)
            {
                return;
            }

            await stream.WriteAsync(reply);
        }

        await ScriptedPipeServer.WaitForCloseAsync(stream);
    }

    private static async Task AnswerOnceAndCloseAsync(NamedPipeServerStream stream, byte[] bytes)
    {
        await ScriptedPipeServer.ReadRequestAsync(stream);
        await stream.WriteAsync(bytes);
    }

    private static async Task AnswerOnceAndHoldAsync(NamedPipeServerStream stream, byte[] bytes)
    {
        await ScriptedPipeServer.ReadRequestAsync(stream);
        await stream.WriteAsync(bytes);
        await ScriptedPipeServer.WaitForCloseAsync(stream);
    }

    private static byte[] Reply(byte status, byte[] body) => [.. Le32(body.Length), status, .. body];

    private static byte[] Le32(int value)
    {
        var bytes = new byte[4];
        BinaryPrimitives.WriteInt32LittleEndian(bytes, value);
        return bytes;
    }
}
