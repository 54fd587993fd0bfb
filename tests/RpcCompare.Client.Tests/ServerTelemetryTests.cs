using System.Collections.Concurrent;
using System.Diagnostics;
using System.Diagnostics.Metrics;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Telemetry;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Client.Tests;

/// <summary>
/// Every binding gives a call one server span and one duration measurement, named and tagged the
/// same way (RpcServerTelemetry): what a team sees in its traces and dashboards does not depend on
/// the binding it chose. The listeners are the process's, so the class runs alone: another class's
/// calls over the same bindings would record spans of the same names.
/// </summary>
[Collection(nameof(ServerTelemetryTests))]
public sealed class ServerTelemetryTests : IClassFixture<ServerTelemetryTests.Recorder>
{
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(10);
    private readonly Recorder _recorder;

    public ServerTelemetryTests(Recorder recorder)
    {
        _recorder = recorder;
    }

    public static TheoryData<string, string> Bindings() => new()
    {
        { BindingNames.WcfNetTcp, RpcSystems.Wcf },
        { BindingNames.WcfUds, RpcSystems.Wcf },
        { BindingNames.WcfHttp, RpcSystems.Wcf },
        { BindingNames.GrpcTcp, RpcSystems.Grpc },
        { BindingNames.GrpcUds, RpcSystems.Grpc },
        { BindingNames.FastTcp, RpcSystems.Fast },
        { BindingNames.FastUds, RpcSystems.Fast },
        { BindingNames.Pipes, RpcSystems.Pipes },
    };

    [Fact]
    public void EveryServedBinding_IsCovered()
    {
        Assert.Equal(BindingNames.All.Where(b => b != BindingNames.InProc), Bindings().Select(row => (string)row[0]));
    }

    [Theory]
    [MemberData(nameof(Bindings))]
    public async Task ACall_HasOneServerSpan_AndADuration_NamedAsOnEveryBinding(string binding, string system)
    {
        var files = _recorder.Factory.Create<IFileService>(binding, _recorder.Host.Address(binding));
        try
        {
            await files.PingAsync(new PingRequest());
        }
        finally
        {
            await RpcClientFactory.ReleaseAsync(files);
        }

        // The span may end just after the reply reached the client (a binding that ends it once the reply is written).
        var span = await _recorder.SpanAsync(binding, "Ping", ActivityStatusCode.Unset);
        Assert.Equal(ServiceNames.FileService + "/Ping", span.DisplayName);
        Assert.Equal(ActivityKind.Server, span.Kind);
        Assert.Equal(system, span.GetTagItem("rpc.system"));
        Assert.Equal(ServiceNames.FileService, span.GetTagItem("rpc.service"));
        Assert.Null(span.GetTagItem("error.type"));
        Assert.True(span.Duration > TimeSpan.Zero);

        var duration = await _recorder.DurationAsync(binding, "Ping", errorType: null);
        Assert.Equal(system, duration.Tags["rpc.system"]);
        Assert.Equal(ServiceNames.FileService, duration.Tags["rpc.service"]);
        Assert.InRange(duration.Seconds, double.Epsilon, 60);
    }

    [Theory]
    [MemberData(nameof(Bindings))]
    public async Task ARefusedCall_HasAFailedSpan_WithTheRefusalsCode(string binding, string system)
    {
        var files = _recorder.Factory.Create<IFileService>(binding, _recorder.Host.Address(binding));
        try
        {
            var refusal = await Assert.ThrowsAsync<RpcServiceException>(() => files.ReadDirectoryAsync(new ReadDirectoryRequest { Path = "missing" }));
            Assert.Equal(RpcErrorCode.NotFound, refusal.Code);
        }
        finally
        {
            await RpcClientFactory.ReleaseAsync(files);
        }

        var span = await _recorder.SpanAsync(binding, "ReadDirectory", ActivityStatusCode.Error);
        Assert.Equal(system, span.GetTagItem("rpc.system"));
        Assert.Equal(nameof(RpcErrorCode.NotFound), span.GetTagItem("error.type"));
        await _recorder.DurationAsync(binding, "ReadDirectory", errorType: nameof(RpcErrorCode.NotFound));
    }

    [Theory]
    [InlineData(BindingNames.GrpcTcp)]
    [InlineData(BindingNames.GrpcUds)]
    [InlineData(BindingNames.FastTcp)]
    [InlineData(BindingNames.FastUds)]
    [InlineData(BindingNames.Pipes)]
    [InlineData(BindingNames.WcfNetTcp)]
    [InlineData(BindingNames.WcfUds)]
    [InlineData(BindingNames.WcfHttp)]
    public async Task TheServerSpanContinuesTheCallersTrace(string binding)
    {
        // gRPC: the W3C headers HttpClient sends for the caller's current span (the parent is HttpClient's own request
        // activity under the caller's). fast-*, pipes: the context the client writes before a traced request (the caller's span).
        // wcf-*: the traceparent SOAP header the client adds (the caller's span).
        using var caller = Recorder.Callers.StartActivity("caller", ActivityKind.Client);
        Assert.NotNull(caller);
        var files = _recorder.Factory.Create<IFileService>(binding, _recorder.Host.Address(binding));
        try
        {
            await files.PingAsync(new PingRequest());
        }
        finally
        {
            await RpcClientFactory.ReleaseAsync(files);
        }

        var span = await _recorder.SpanAsync(binding, "Ping", ActivityStatusCode.Unset, caller.TraceId);
        Assert.True(span.HasRemoteParent);
        if (binding is not (BindingNames.GrpcTcp or BindingNames.GrpcUds))
        {
            Assert.Equal(caller.SpanId, span.ParentSpanId);
        }
        else
        {
            Assert.NotEqual(default, span.ParentSpanId);
        }
    }

    /// <summary>A host with every binding, and listeners on the server spans and the duration histogram for the class's tests.</summary>
    public sealed class Recorder : IAsyncLifetime
    {
        private const string CallerSourceName = "RpcCompare.Client.Tests.Caller";
        private readonly ConcurrentQueue<Activity> _spans = new();
        private readonly ConcurrentQueue<(double Seconds, Dictionary<string, object?> Tags)> _durations = new();
        private readonly ActivityListener _spanListener;
        private readonly MeterListener _meterListener = new();

        public Recorder()
        {
            _spanListener = new ActivityListener
            {
                ShouldListenTo = source => source.Name is RpcServerTelemetry.SourceName or CallerSourceName,
                Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
                ActivityStopped = span =>
                {
                    if (span.Source.Name == RpcServerTelemetry.SourceName)
                    {
                        _spans.Enqueue(span);
                    }
                },
            };
            ActivitySource.AddActivityListener(_spanListener);
            _meterListener.InstrumentPublished = (instrument, listener) =>
            {
                if (instrument.Meter.Name == RpcServerTelemetry.SourceName && instrument.Name == RpcServerTelemetry.DurationName)
                {
                    listener.EnableMeasurementEvents(instrument);
                }
            };
            _meterListener.SetMeasurementEventCallback<double>((_, seconds, tags, _) =>
            {
                var copy = new Dictionary<string, object?>(StringComparer.Ordinal);
                foreach (var tag in tags)
                {
                    copy[tag.Key] = tag.Value;
                }

                _durations.Enqueue((seconds, copy));
            });
            _meterListener.Start();
        }

        /// <summary>Where a test starts the caller's span whose trace a binding should continue.</summary>
        public static ActivitySource Callers { get; } = new(CallerSourceName);

        public InProcessHost Host { get; private set; } = null!;

        public RpcClientFactory Factory { get; } = RpcClientFactory.CreateDefault();

        public async Task<Activity> SpanAsync(string binding, string method, ActivityStatusCode status, ActivityTraceId? trace = null)
        {
            Activity? found = null;
            await Eventually.HoldsAsync(() => (found = _spans.FirstOrDefault(s => Equals(s.GetTagItem("rpccompare.binding"), binding) && Equals(s.GetTagItem("rpc.method"), method) && s.Status == status
                    && (trace is null || s.TraceId == trace))) is not null,
                Settle, () => $"no {status} server span for {method} over {binding}; spans seen: " + string.Join(", ", _spans.Select(s => $"{s.GetTagItem("rpccompare.binding")} {s.DisplayName} {s.Status}")));
            return found!;
        }

        public async Task<(double Seconds, Dictionary<string, object?> Tags)> DurationAsync(string binding, string method, string? errorType)
        {
            (double Seconds, Dictionary<string, object?> Tags) found = default;
            await Eventually.HoldsAsync(() =>
                {
                    foreach (var duration in _durations)
                    {
                        if (Equals(duration.Tags["rpccompare.binding"], binding) && Equals(duration.Tags["rpc.method"], method) && Equals(duration.Tags.GetValueOrDefault("error.type"), errorType))
                        {
                            found = duration;
                            return true;
                        }
                    }

                    return false;
                },
                Settle, () => $"no duration for {method} over {binding} with error.type {errorType ?? "(none)"}");
            return found;
        }

        public async Task InitializeAsync() => Host = await InProcessHost.StartAsync();

        public async Task DisposeAsync()
        {
            _spanListener.Dispose();
            _meterListener.Dispose();
            Factory.Dispose();
            await Host.DisposeAsync();
        }
    }
}

/// <summary>Alone: the listeners are the process's (<see cref="ServerTelemetryTests"/>).</summary>
[CollectionDefinition(nameof(ServerTelemetryTests), DisableParallelization = true)]
public sealed class ServerTelemetryRunsAlone;
