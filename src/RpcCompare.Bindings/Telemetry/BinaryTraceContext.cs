using System.Diagnostics;

namespace RpcCompare.Bindings.Telemetry;

/// <summary>
/// The caller's W3C trace context as the product's own protocols carry it before a request's message
/// (the fast bindings' header flag, the pipes binding's flagged operation code): the binary form of a
/// <c>traceparent</c>, 26 bytes: version (0), trace id (16), parent span id (8), trace flags (1). The
/// server's span for the call continues that trace. Sent only by a client with a current span, so an
/// untraced call costs nothing on the wire.
/// </summary>
public static class BinaryTraceContext
{
    /// <summary>The context's length on the wire.</summary>
    public const int Size = 26;

    private const byte Version = 0;

    /// <summary>The span a call made now should carry: the current one, when it has W3C ids (not the old hierarchical format).</summary>
    public static Activity? Caller => Activity.Current is { IdFormat: ActivityIdFormat.W3C } current ? current : null;

    /// <summary>Writes <paramref name="caller"/>'s context into the first <see cref="Size"/> bytes of <paramref name="destination"/>.</summary>
    public static void Write(Span<byte> destination, Activity caller)
    {
        ArgumentNullException.ThrowIfNull(caller);
        destination[0] = Version;
        caller.TraceId.CopyTo(destination.Slice(1, 16));
        caller.SpanId.CopyTo(destination.Slice(17, 8));
        destination[25] = (byte)caller.ActivityTraceFlags;
    }

    /// <summary>
    /// Reads the context at the front of <paramref name="body"/>: null when it is one (<paramref name="parent"/> is
    /// then the caller's span if <paramref name="wanted"/>, something records the server's spans), else what is
    /// wrong with it. One with an all-zero trace or span id (W3C: invalid) is ignored: the call is served, its span
    /// starts a trace of its own.
    /// </summary>
    public static string? TryRead(ReadOnlySpan<byte> body, bool wanted, out ActivityContext parent)
    {
        parent = default;
        if (body.Length < Size)
        {
            return $"a request flagged with a trace context is {body.Length} bytes, shorter than the {Size}-byte context";
        }

        if (body[0] != Version)
        {
            return $"a trace context of version {body[0]}, not {Version}";
        }

        var trace = body.Slice(1, 16);
        var span = body.Slice(17, 8);
        if (wanted && trace.ContainsAnyExcept((byte)0) && span.ContainsAnyExcept((byte)0))
        {
            parent = new ActivityContext(ActivityTraceId.CreateFromBytes(trace), ActivitySpanId.CreateFromBytes(span),
                (ActivityTraceFlags)(body[25] & (byte)ActivityTraceFlags.Recorded), traceState: null, isRemote: true);
        }

        return null;
    }
}
