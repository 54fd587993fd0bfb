using System.Net;
using OpenTelemetry.Exporter;
using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;
using OpenTelemetry.Trace;
using RpcCompare.Bindings.Limits;
using RpcCompare.Bindings.Telemetry;
using RpcCompare.Push;

namespace RpcCompare.Host;

/// <summary>
/// The host's telemetry (section "Telemetry"): off by default, so nothing listens to the bindings'
/// spans and measurements and the benchmark path is unchanged. On, it starts the OpenTelemetry SDK
/// with every binding's server spans and call durations (<see cref="RpcServerTelemetry"/>), the
/// connection incidents, and the exporters asked for: OTLP, a Prometheus scrape endpoint, or both.
/// </summary>
internal sealed class HostTelemetryOptions
{
    public const string SectionName = "Telemetry";

    /// <summary>Record spans and metrics. Defaults to false. Implied by an exporter's setting.</summary>
    public bool Enabled { get; set; }

    /// <summary>
    /// OTLP receiver (a collector) to export spans and metrics to, e.g. http://127.0.0.1:4317.
    /// Defaults to null: the standard OTEL_EXPORTER_OTLP_ENDPOINT, else no OTLP export.
    /// </summary>
    public string? OtlpEndpoint { get; set; }

    /// <summary>"grpc" (port 4317) or "http/protobuf" (port 4318). Defaults to null: OTEL_EXPORTER_OTLP_PROTOCOL, else grpc.</summary>
    public string? OtlpProtocol { get; set; }

    /// <summary>Serve the metrics for Prometheus at http://LISTEN-ADDRESS:PORT/metrics. Defaults to null: no endpoint.</summary>
    public int? PrometheusPort { get; set; }

    /// <summary>The OTLP endpoint in force: this section's, else the standard environment variable's.</summary>
    public Uri? EffectiveOtlpEndpoint =>
        OtlpEndpoint is { Length: > 0 } configured ? new Uri(configured)
        : Environment.GetEnvironmentVariable("OTEL_EXPORTER_OTLP_ENDPOINT") is { Length: > 0 } standard ? new Uri(standard)
        : null;

    public bool IsOn => Enabled || OtlpEndpoint is { Length: > 0 } || PrometheusPort is not null;
}

internal static class HostTelemetry
{
    /// <summary>Adds the SDK when the section turns telemetry on; a clear error for settings it cannot use.</summary>
    public static void Add(IServiceCollection services, HostTelemetryOptions options, string? listenAddress)
    {
        if (!options.IsOn)
        {
            return;
        }

        var named = options.OtlpProtocol ?? Environment.GetEnvironmentVariable("OTEL_EXPORTER_OTLP_PROTOCOL") ?? "grpc";
        var protocol = named switch
        {
            "grpc" => OtlpExportProtocol.Grpc,
            "http/protobuf" => OtlpExportProtocol.HttpProtobuf,
            _ => throw new ArgumentException($"--otlp-protocol must be grpc or http/protobuf; got '{named}'."),
        };
        if (options.PrometheusPort is < 1 or > 65535)
        {
            throw new ArgumentException($"--metrics-port must be a port number (1-65535); got {options.PrometheusPort}.");
        }

        var otlp = options.EffectiveOtlpEndpoint;
        services.AddOpenTelemetry()
            .ConfigureResource(resource => resource.AddService("rpccompare-host", serviceInstanceId: Environment.MachineName + ":" + Environment.ProcessId))
            .WithTracing(tracing =>
            {
                tracing.AddSource(RpcServerTelemetry.SourceName, PushTelemetry.SourceName);
                if (otlp is not null)
                {
                    tracing.AddOtlpExporter(o => Otlp(o, otlp, protocol, "v1/traces"));
                }
            })
            .WithMetrics(metrics =>
            {
                metrics.AddMeter(RpcServerTelemetry.SourceName, ConnectionIncidents.MeterName, PushMetrics.MeterName);
                if (otlp is not null)
                {
                    metrics.AddOtlpExporter(o => Otlp(o, otlp, protocol, "v1/metrics"));
                }

                if (options.PrometheusPort is { } port)
                {
                    // The listen address of the TCP bindings (loopback unless the host says otherwise).
                    var everyAddress = listenAddress is "0.0.0.0" or "::";
                    var address = listenAddress is null or "" ? IPAddress.Loopback.ToString()
                        : everyAddress ? "localhost"
                        : listenAddress.Contains(':', StringComparison.Ordinal) ? $"[{listenAddress}]" : listenAddress;
                    metrics.AddPrometheusHttpListener(o =>
                    {
                        o.Host = address;
                        o.Port = port;
                        if (everyAddress)
                        {
                            // Every address, whatever name the scraper uses (host-1:9464 in the fleet): HttpListener's "+",
                            // which the exporter's Host cannot take (it builds a Uri of it, and "+" is not a host name).
                            o.ConfigureHttpListener = (_, listener) =>
                            {
                                listener.Prefixes.Clear();
                                listener.Prefixes.Add(FormattableString.Invariant($"http://+:{port}/metrics/"));
                            };
                        }
                    });
                }
            });
    }

    // Over HTTP the SDK posts to the endpoint as given, so the signal's path is added as the standard variables do.
    private static void Otlp(OtlpExporterOptions exporter, Uri endpoint, OtlpExportProtocol protocol, string signalPath)
    {
        exporter.Protocol = protocol;
        exporter.Endpoint = protocol == OtlpExportProtocol.HttpProtobuf ? new Uri(endpoint.AbsoluteUri.TrimEnd('/') + "/" + signalPath) : endpoint;
    }
}
