using System.Collections.Concurrent;
using System.Diagnostics;
using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Bindings.Telemetry;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>
/// The fast binding's server spans where its threading could get them wrong (the shape of every
/// binding's spans is checked in RpcCompare.Client.Tests' ServerTelemetryTests).
/// </summary>
[Collection(nameof(FastTelemetryTests))]
public sealed class FastTelemetryTests : IDisposable
{
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(10);
    private readonly ConcurrentQueue<Activity> _spans = new();
    private readonly ActivityListener _listener;

    public FastTelemetryTests()
    {
        _listener = new ActivityListener
        {
            ShouldListenTo = source => source.Name == RpcServerTelemetry.SourceName,
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = _spans.Enqueue,
        };
        ActivitySource.AddActivityListener(_listener);
    }

    [Fact]
    public async Task ACallReadWhileAnotherIsPending_IsNotMadeItsChild()
    {
        // Both calls on one connection, so one server thread dispatches both: the first's span, still open, must not
        // stay that thread's current span, or every call read after it would join its trace.
        await using var server = await TestFastServer.StartAsync();
        var probe = server.Client<IProbe>();
        var held = probe.LaterAsync(7);
        await Eventually.HoldsAsync(() => server.Probe.IsWaiting(7), Settle, () => $"the call never reached the service ({held.Status})");
        Assert.Equal(5, await probe.EchoAsync(5).Bounded());
        server.Probe.Release(7);
        Assert.Equal(70, await held.Bounded());

        await Eventually.HoldsAsync(() => Spans("Later").Length > 0 && Spans("Echo").Length > 0, Settle, () => $"spans seen: {string.Join(", ", _spans.Select(s => s.DisplayName))}");
        var later = Spans("Later");
        Assert.All(Spans("Echo"), echo => Assert.DoesNotContain(later, l => l.SpanId == echo.ParentSpanId));
        Assert.All(later, l => Assert.Equal(ActivityStatusCode.Unset, l.Status));
    }

    [Fact]
    public async Task AFailedCall_EndsItsSpanWithTheRefusalsCode_AndTheConnectionThreadKeepsNoSpan()
    {
        await using var server = await TestFastServer.StartAsync();
        var probe = server.Client<IProbe>();
        await Assert.ThrowsAsync<Contracts.RpcServiceException>(() => probe.RefuseAsync((int)Contracts.RpcErrorCode.PermissionDenied).Bounded());
        Assert.Equal(9, await probe.EchoAsync(9).Bounded());

        await Eventually.HoldsAsync(() => Spans("Refuse").Any(s => s.Status == ActivityStatusCode.Error), Settle, () => $"spans seen: {string.Join(", ", _spans.Select(s => $"{s.DisplayName} {s.Status}"))}");
        Assert.Contains(Spans("Refuse"), s => Equals(s.GetTagItem("error.type"), nameof(Contracts.RpcErrorCode.PermissionDenied)));
        var refused = Spans("Refuse").Select(s => s.SpanId).ToHashSet();
        await Eventually.HoldsAsync(() => Spans("Echo").Length > 0, Settle, () => "no span for Echo");
        Assert.All(Spans("Echo"), echo => Assert.DoesNotContain(echo.ParentSpanId, refused));
    }

    [Fact]
    public async Task ARequestCarryingTheCallersTraceContext_IsServedAsItsChild()
    {
        await using var server = await TestFastServer.StartAsync();
        using var raw = new RawFastConnection(server.Path);
        var ids = raw.Bind<IProbe>();
        using var caller = new Activity("caller").SetIdFormat(ActivityIdFormat.W3C).Start();

        // The frame as a traced client writes it: the flag, then the 26-byte context before the message.
        raw.TracedRequest(ids["Echo"], 5, caller, 12);
        var (reply, body) = raw.Read();

        Assert.Equal((FrameKind.Reply, 5u), (reply.Kind, reply.CallId));
        Assert.Equal(12, Body.ReadMessage<EchoValue>(body).Value);
        await Eventually.HoldsAsync(() => Spans("Echo").Any(s => s.TraceId == caller.TraceId), Settle, () => "no Echo span in the caller's trace");
        var span = Spans("Echo").Single(s => s.TraceId == caller.TraceId);
        Assert.Equal(caller.SpanId, span.ParentSpanId);
        Assert.True(span.HasRemoteParent);
    }

    [Fact]
    public async Task ARequestWithAnAllZeroContext_IsServed_InATraceOfItsOwn()
    {
        // W3C calls all-zero ids invalid: the call is answered, and its span does not join a trace of zeros.
        await using var server = await TestFastServer.StartAsync();
        using var raw = new RawFastConnection(server.Path);
        var ids = raw.Bind<IProbe>();
        byte[] message = [0x08, 12]; // Echo's request: field 1, the varint 12
        var frame = new byte[FrameHeader.Size + TraceContext.Size + message.Length];
        new FrameHeader(FrameKind.Request, ids["Echo"], 6, TraceContext.Size + message.Length, FrameFlags.TraceContext).Write(frame);
        message.CopyTo(frame.AsSpan(FrameHeader.Size + TraceContext.Size));

        raw.Send(frame);
        var (reply, body) = raw.Read();

        Assert.Equal((FrameKind.Reply, 6u), (reply.Kind, reply.CallId));
        Assert.Equal(12, Body.ReadMessage<EchoValue>(body).Value);
        await Eventually.HoldsAsync(() => Spans("Echo").Length > 0, Settle, () => "no Echo span");
        Assert.All(Spans("Echo"), s => Assert.False(s.HasRemoteParent));
        Assert.DoesNotContain(Spans("Echo"), s => s.TraceId.ToHexString() == new string('0', 32));
    }

    [Fact]
    public async Task ATracedRequestOfExactlyTheLimit_IsServed_TheContextNotCounted()
    {
        // The context rides beside the message, as gRPC's headers do: a message the limit allows untraced is allowed traced.
        await using var server = await TestFastServer.StartAsync(o => o.MaxMessageSize = 1000);
        using var raw = new RawFastConnection(server.Path);
        var ids = raw.Bind<IProbe>();
        using var caller = new Activity("caller").SetIdFormat(ActivityIdFormat.W3C).Start();
        // Echo's request padded to 1,000 bytes with a field it does not know: field 1 = 12, field 15 = 995 bytes.
        var message = new byte[1000];
        message[0] = 0x08;
        message[1] = 12;
        message[2] = 0x7A;
        message[3] = 0xE3;
        message[4] = 0x07;
        var frame = new byte[FrameHeader.Size + TraceContext.Size + message.Length];
        new FrameHeader(FrameKind.Request, ids["Echo"], 8, TraceContext.Size + message.Length, FrameFlags.TraceContext).Write(frame);
        TraceContext.Write(frame.AsSpan(FrameHeader.Size), caller);
        message.CopyTo(frame.AsSpan(FrameHeader.Size + TraceContext.Size));

        raw.Send(frame);
        var (reply, body) = raw.Read();

        Assert.Equal((FrameKind.Reply, 8u), (reply.Kind, reply.CallId));
        Assert.Equal(12, Body.ReadMessage<EchoValue>(body).Value);
    }

    [Theory]
    [InlineData((byte)FrameKind.Request, 25, "shorter than the 26-byte context")]
    [InlineData((byte)FrameKind.Request, 0, "shorter than the 26-byte context")]
    [InlineData((byte)FrameKind.Bind, 40, "frame flags 0x01 are not defined for a Bind frame")]
    public async Task ATraceContextFlagWithoutAContext_OrOnAnotherFrame_ClosesThatConnection(byte kindByte, int bodyLength, string reason)
    {
        var kind = (FrameKind)kindByte;
        await using var server = await TestFastServer.StartAsync();
        using var raw = new RawFastConnection(server.Path);
        var ids = raw.Bind<IProbe>();
        var frame = new byte[FrameHeader.Size + bodyLength];
        new FrameHeader(kind, ids["Echo"], 9, bodyLength, FrameFlags.TraceContext).Write(frame);

        raw.Send(frame);

        Assert.Null(raw.ReadOrClosed());
        await Eventually.HoldsAsync(() => server.Log.Matching(reason).Count == 1, Settle, () => string.Join("\n", server.Log.Lines));
    }

    public void Dispose() => _listener.Dispose();

    private Activity[] Spans(string method) => [.. _spans.Where(s => Equals(s.GetTagItem("rpc.method"), method))];
}

/// <summary>Alone: the listener is the process's, and other tests' calls would add spans of the same names.</summary>
[CollectionDefinition(nameof(FastTelemetryTests), DisableParallelization = true)]
public sealed class FastTelemetryRunsAlone;

/// <summary>The probe's Echo request and reply: one int field.</summary>
[ProtoBuf.ProtoContract]
internal sealed class EchoValue
{
    [ProtoBuf.ProtoMember(1)]
    public int Value { get; set; }
}
