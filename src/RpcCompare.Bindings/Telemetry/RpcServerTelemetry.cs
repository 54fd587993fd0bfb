using System.Diagnostics;
using System.Diagnostics.Metrics;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Telemetry;

/// <summary>
/// One server span and one duration measurement per call, the same on every binding, after the
/// OpenTelemetry semantic conventions for RPC: a span named "{rpc.service}/{rpc.method}" of kind
/// Server with <c>rpc.system</c>, <c>rpc.service</c>, <c>rpc.method</c> and the binding
/// (<c>rpccompare.binding</c>), and the histogram <c>rpc.server.call.duration</c> (seconds) with the
/// same tags, plus <c>error.type</c> for a call that failed. Nothing is recorded, and next to nothing
/// is spent, unless something listens (the host's <c>Telemetry:Enabled</c> turns the OpenTelemetry
/// SDK on): the benchmark path is unchanged by default.
/// </summary>
public static class RpcServerTelemetry
{
    /// <summary>The ActivitySource and Meter name to subscribe to.</summary>
    public const string SourceName = "RpcCompare.Server";

    /// <summary>The duration histogram's name.</summary>
    public const string DurationName = "rpc.server.call.duration";

    internal static readonly ActivitySource Source = new(SourceName, typeof(RpcServerTelemetry).Assembly.GetName().Version?.ToString());

    private static readonly Meter s_meter = new(SourceName, typeof(RpcServerTelemetry).Assembly.GetName().Version?.ToString());

    // Bucket bounds from 10 µs: the semantic conventions' defaults start at 5 ms, where a local call is long over.
    internal static readonly Histogram<double> Duration = s_meter.CreateHistogram(
        DurationName, "s", "How long a call took in the server, from its request read to its reply written.",
        advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = [0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] });

    /// <summary>Whether anything listens to the spans or the histogram.</summary>
    public static bool IsEnabled => Source.HasListeners() || Duration.Enabled;

    /// <summary>
    /// A call of <paramref name="method"/> begins: its span becomes <see cref="Activity.Current"/> on this
    /// flow. Nothing (a default <see cref="ServerCall"/>, whose End does nothing) when no one listens.
    /// </summary>
    public static ServerCall Start(ServedMethod method)
    {
        ArgumentNullException.ThrowIfNull(method);
        return IsEnabled ? ServerCall.Begin(method, default) : default;
    }

    /// <summary>As <see cref="Start(ServedMethod)"/>, continuing the trace of <paramref name="parent"/> (the caller's span, as its request carried it; default: none).</summary>
    public static ServerCall Start(ServedMethod method, ActivityContext parent)
    {
        ArgumentNullException.ThrowIfNull(method);
        return IsEnabled ? ServerCall.Begin(method, parent) : default;
    }

    /// <summary>
    /// As <see cref="Start(ServedMethod)"/>, continuing the caller's trace: <paramref name="traceParent"/> and
    /// <paramref name="traceState"/> are the W3C trace context the request carried (null, or not valid: a trace of its own).
    /// </summary>
    public static ServerCall Start(ServedMethod method, string? traceParent, string? traceState)
    {
        ArgumentNullException.ThrowIfNull(method);
        if (!IsEnabled)
        {
            return default;
        }

        return ServerCall.Begin(method, traceParent is not null && ActivityContext.TryParse(traceParent, traceState, isRemote: true, out var parent) ? parent : default);
    }

    /// <summary>
    /// The <c>error.type</c> of a failure: an <see cref="RpcServiceException"/>'s code (NotFound,
    /// QuotaExceeded, ...), else the exception's type, which is few values, as a metric tag must be.
    /// </summary>
    public static string ErrorType(Exception error)
    {
        ArgumentNullException.ThrowIfNull(error);
        return error is RpcServiceException refusal ? refusal.Code.ToString() : TypeName(error.GetType());
    }

    // FaultException<RpcFault> as "System.ServiceModel.FaultException<RpcFault>", not with its argument's assembly-qualified name.
    private static string TypeName(Type type)
    {
        if (!type.IsGenericType)
        {
            return type.FullName ?? type.Name;
        }

        var name = type.GetGenericTypeDefinition().FullName ?? type.Name;
        return $"{name[..name.IndexOf('`', StringComparison.Ordinal)]}<{string.Join(",", type.GetGenericArguments().Select(static a => a.Name))}>";
    }
}
