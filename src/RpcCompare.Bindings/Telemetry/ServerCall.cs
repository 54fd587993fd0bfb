using System.Diagnostics;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Telemetry;

/// <summary>
/// One call's span and start time, from <see cref="RpcServerTelemetry.Start(ServedMethod)"/> to <see cref="End(string?)"/>.
/// A default value (no one listening) does nothing.
/// </summary>
public readonly struct ServerCall
{
    private readonly ServedMethod? _method;
    private readonly Activity? _previous;
    private readonly long _started;

    private ServerCall(ServedMethod method, Activity? activity, Activity? previous)
    {
        _method = method;
        Span = activity;
        _previous = previous;
        _started = Stopwatch.GetTimestamp();
    }

    /// <summary>The call's span; null when only the histogram listens, or when nothing does.</summary>
    public Activity? Span { get; }

    // ASP.NET Core's request activity (gRPC, wcf-http), which it starts even when nothing listens to it.
    private const string AspNetCoreRequest = "Microsoft.AspNetCore.Hosting.HttpRequestIn";

    // A default parent: the current span, if any, as for any activity.
    internal static ServerCall Begin(ServedMethod method, ActivityContext parent)
    {
        var previous = Activity.Current;
        var cleared = false;
        if (parent == default && previous is { Recorded: false, OperationName: AspNetCoreRequest } request)
        {
            // Unrecorded (nothing listens to ASP.NET Core's spans), so the SDK's parent-based sampler would drop a child of
            // it: the call's span continues the trace the request came with (the W3C headers ASP.NET Core read), or begins one.
            parent = ActivityContext.TryParse(request.ParentId, request.TraceStateString, isRemote: true, out var remote) ? remote : default;
            Activity.Current = null;
            cleared = true;
        }

        var activity = RpcServerTelemetry.Source.StartActivity(method.SpanName, ActivityKind.Server, parent, method.Tags);
        if (activity is null && cleared)
        {
            // Nothing recorded the call: the request's activity is current again, as ASP.NET Core expects to stop it.
            Activity.Current = previous;
        }

        return new ServerCall(method, activity, previous);
    }

    /// <summary>
    /// The thread that began the call moves on to other work while the call goes on elsewhere (its
    /// continuation, which keeps the span as its own current one): this thread's current span is what
    /// it was before, so the next call it reads is not made a child of this one.
    /// </summary>
    public void Leave()
    {
        if (Span is not null && Activity.Current == Span)
        {
            Activity.Current = _previous;
        }
    }

    /// <summary>The call ended: with an error when <paramref name="errorType"/> is given (<see cref="RpcServerTelemetry.ErrorType"/>).</summary>
    public void End(string? errorType = null)
    {
        if (_method is null)
        {
            return;
        }

        if (Span is { } activity)
        {
            if (errorType is not null)
            {
                SetError(activity, errorType);
            }

            activity.Stop();
        }

        if (RpcServerTelemetry.Duration.Enabled)
        {
            var seconds = Stopwatch.GetElapsedTime(_started).TotalSeconds;
            if (errorType is null)
            {
                RpcServerTelemetry.Duration.Record(seconds, _method.Tags);
            }
            else
            {
                KeyValuePair<string, object?>[] tags = [.. _method.Tags, new("error.type", errorType)];
                RpcServerTelemetry.Duration.Record(seconds, tags);
            }
        }
    }

    /// <summary>The call ended with <paramref name="error"/>.</summary>
    public void End(Exception error)
    {
        if (_method is not null)
        {
            End(RpcServerTelemetry.ErrorType(error));
        }
    }

    /// <summary>The call ended, refused with <paramref name="refusal"/> when it has a value (a binding that answers with the code, not an exception).</summary>
    public void End(RpcErrorCode? refusal)
    {
        if (_method is not null)
        {
            End(refusal?.ToString());
        }
    }

    private static void SetError(Activity activity, string errorType)
    {
        activity.SetStatus(ActivityStatusCode.Error);
        activity.SetTag("error.type", errorType);
    }
}
