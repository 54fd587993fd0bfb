using System.Collections.Concurrent;
using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Security;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Client.Tests;

/// <summary>
/// The service reads its caller the same way on every binding (<see cref="CallerIdentity.Current"/>):
/// the peer's user and process on a Unix socket, the remote address on TCP, nothing on inproc.
/// The client certificate under mutual TLS is checked in <see cref="MutualTlsTests"/>.
/// </summary>
public sealed class CallerIdentityTests : IClassFixture<CallerIdentityTests.RecordingHost>
{
    private static readonly string[] s_unixSockets = [BindingNames.WcfUds, BindingNames.GrpcUds, BindingNames.FastUds, BindingNames.Pipes];
    private readonly RecordingHost _fixture;

    public CallerIdentityTests(RecordingHost fixture)
    {
        _fixture = fixture;
    }

    public static TheoryData<string> UnixSocketBindings() => [.. s_unixSockets];

    public static TheoryData<string> TcpBindings() => [BindingNames.WcfNetTcp, BindingNames.WcfHttp, BindingNames.GrpcTcp, BindingNames.FastTcp];

    [Theory]
    [MemberData(nameof(UnixSocketBindings))]
    public async Task OnAUnixSocket_TheServiceSeesThePeersUserAndProcess(string binding)
    {
        var caller = await CallAsync(binding);

        Assert.NotNull(caller);
        Assert.Equal(binding, caller.Binding);
        Assert.Equal(PeerCredentials.CurrentUserId, caller.Peer?.UserId);
        Assert.Equal(Environment.ProcessId, caller.Peer?.ProcessId);
        Assert.True(caller.IsAuthenticated);
        Assert.Null(caller.RemoteAddress);
        Assert.Equal($"uid {PeerCredentials.CurrentUserId} (pid {Environment.ProcessId})", caller.Name);
    }

    [Theory]
    [MemberData(nameof(TcpBindings))]
    public async Task OnTcpWithoutClientCertificates_TheServiceSeesAnAnonymousCallerAndItsAddress(string binding)
    {
        var caller = await CallAsync(binding);

        Assert.NotNull(caller);
        Assert.Equal(binding, caller.Binding);
        Assert.Matches(@"^127\.0\.0\.1:\d+$", caller.RemoteAddress);
        Assert.Null(caller.Peer);
        Assert.Null(caller.Certificate);
        Assert.False(caller.IsAuthenticated);
        Assert.Equal($"anonymous at {caller.RemoteAddress}", caller.Name);
    }

    [Fact]
    public async Task InProc_HasNoCaller()
    {
        Assert.Null(await CallAsync(BindingNames.InProc));
    }

    [Fact]
    public void OutsideACall_ThereIsNoCaller()
    {
        Assert.Null(CallerIdentity.Current);
    }

    private async Task<CallerIdentity?> CallAsync(string binding)
    {
        var factory = RpcClientFactory.CreateDefault(inProcServices: _fixture.Host.Services);
        var shapes = factory.Create<ICallShapeService>(binding, _fixture.Host.Address(binding));
        try
        {
            return await _fixture.Shapes.CallAsync(shapes);
        }
        finally
        {
            await RpcClientFactory.ReleaseAsync(shapes);
        }
    }

    /// <summary>Every binding, serving a call-shape service that keeps who called it.</summary>
    public sealed class RecordingHost : IAsyncLifetime
    {
        public InProcessHost Host { get; private set; } = null!;

        public CallerRecordingShapes Shapes => (CallerRecordingShapes)Host.Services.GetRequiredService<ICallShapeService>();

        public async Task InitializeAsync() =>
            Host = await InProcessHost.StartAsync(services: ["FileService"], configureServices: services => services.AddRpcService<ICallShapeService, CallerRecordingShapes>());

        public async Task DisposeAsync() => await Host.DisposeAsync();
    }
}

/// <summary>
/// A call-shape service whose Increment keeps <see cref="CallerIdentity.Current"/> under the value it
/// was given, so concurrent tests' calls do not mix: what a team's implementation would read.
/// </summary>
public sealed class CallerRecordingShapes : ICallShapeService
{
    private readonly ConcurrentDictionary<int, CallerIdentity?> _callers = new();
    private int _next;

    public Task VoidCallAsync() => Task.CompletedTask;

    public Task TakeIntAsync(IntMessage request) => Task.CompletedTask;

    public Task<IntMessage> ReturnIntAsync() => Task.FromResult(new IntMessage());

    public Task<IntMessage> IncrementAsync(IntMessage request)
    {
        ArgumentNullException.ThrowIfNull(request);
        _callers[request.Value] = CallerIdentity.Current;
        return Task.FromResult(new IntMessage { Value = request.Value + 1 });
    }

    public Task TakePointAsync(PointMessage request) => Task.CompletedTask;

    /// <summary>Calls Increment through <paramref name="client"/> and returns the caller the service saw.</summary>
    public async Task<CallerIdentity?> CallAsync(ICallShapeService client)
    {
        ArgumentNullException.ThrowIfNull(client);
        var value = Interlocked.Increment(ref _next);
        var reply = await client.IncrementAsync(new IntMessage { Value = value }).Bounded();
        Assert.Equal(value + 1, reply.Value);
        return _callers.TryRemove(value, out var caller) ? caller : throw new InvalidOperationException($"The service did not see call {value}.");
    }
}
