using RpcCompare.Bindings.ContractAssemblies;
using RpcCompare.Bindings.Limits;
using RpcCompare.Bindings.Security;
using RpcCompare.Description;
using RpcCompare.Host;

if (HostCommandLine.WantsHelp(args))
{
    Console.Out.Write(HostCommandLine.Usage);
    return 0;
}

if (HostCommandLine.FindUnknownSwitch(args) is { } unknown)
{
    Console.Error.WriteLine($"rpccompare-host: unknown option '{unknown}'. See --help.");
    return 2;
}

// Content root at the executable so appsettings.json is found whatever the working directory;
// the command line is added below with the host's switch mappings.
var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { ContentRootPath = AppContext.BaseDirectory });
builder.Configuration.AddCommandLine(HostCommandLine.ExpandFlags(args), HostCommandLine.SwitchMappings);

var hostSection = builder.Configuration.GetSection(RpcCompareHostOptions.SectionName);
var hostOptions = hostSection.Get<RpcCompareHostOptions>() ?? new RpcCompareHostOptions();
IReadOnlyList<string> bindings;
IReadOnlyList<string> services;
ContractAssembly? teamContracts;
try
{
    bindings = HostBindings.Parse(hostOptions.Bindings);
    services = RpcCompare.Service.ProductServices.Parse(hostOptions.Services);
    teamContracts = hostOptions.Contracts is { Length: > 0 } path ? ContractAssembly.Load(path) : null;
}
catch (Exception exception) when (exception is ArgumentException or NotSupportedException or ContractAssemblyException)
{
    Console.Error.WriteLine($"rpccompare-host: {exception.Message}");
    return 2;
}

TransportSecurity security;
try
{
    security = HostTls.Create(builder.Configuration, hostOptions);
    builder.Services.AddSingleton(UnixPeerPolicy.Parse(hostOptions.AllowedUsers, "--allowed-users"));
}
catch (Exception exception) when (exception is InvalidOperationException or IOException or UnauthorizedAccessException or ArgumentException)
{
    Console.Error.WriteLine($"rpccompare-host: {exception.Message}");
    return 2;
}

builder.Services.AddSingleton(security);
try
{
    HostTelemetry.Add(builder.Services, builder.Configuration.GetSection(HostTelemetryOptions.SectionName).Get<HostTelemetryOptions>() ?? new HostTelemetryOptions(), hostOptions.ListenAddress);
}
catch (Exception exception) when (exception is ArgumentException or UriFormatException or InvalidOperationException)
{
    // InvalidOperationException: a value the configuration binder could not read (--metrics-port abc).
    Console.Error.WriteLine($"rpccompare-host: {exception.Message}");
    return 2;
}

using var sockets = new SocketDirectory(hostOptions.SocketDirectory);
builder.Services.Configure<RpcCompareHostOptions>(hostSection);
builder.Services.AddRpcCompareServices(builder.Configuration, only: services);
if (teamContracts is not null)
{
    try
    {
        builder.Services.AddRpcServices(teamContracts);
    }
    catch (ContractLoadException exception)
    {
        // A contract WCF's own rules refuse (an `in` parameter, overloads without names): no binding could describe it.
        Console.Error.WriteLine($"rpccompare-host: {teamContracts.Name}: {exception.Message}");
        return 2;
    }
}

// Topics for every push binding (gRPC streams, WCF duplex, HTTP long polling, pipes, fast), shared through Redis (--push-redis) or NATS (--push-nats).
try
{
    HostPush.Add(builder.Services, builder.Configuration);
}
catch (ArgumentException exception)
{
    Console.Error.WriteLine($"rpccompare-host: {exception.Message}");
    return 2;
}

if (hostOptions.MaxConnectionsPerBinding <= 0)
{
    Console.Error.WriteLine($"rpccompare-host: --max-connections must be positive; got {hostOptions.MaxConnectionsPerBinding}.");
    return 2;
}

// The bindings together stay below the open-file limit: a host that reached it under a flood died.
var perBinding = hostOptions.MaxConnectionsPerBinding ?? OpenFileLimit.ShareOf(OpenFileLimit.ReadSoftLimit(), bindings.Count);
HostBindings.Add(builder.Services, new HostBindingContext(builder.Configuration, sockets, hostOptions.MaxMessageSize, hostOptions.ListenAddress, perBinding), bindings);
builder.Services.AddHostedService<EndpointsPublisher>();

try
{
    using var host = builder.Build();
    if (teamContracts is not null)
    {
        TeamContracts.Announce(host.Services, teamContracts);
    }

    await host.RunAsync();
    return 0;
}
catch (Exception exception) when (exception is IOException or InvalidOperationException or UnauthorizedAccessException or Microsoft.Extensions.Options.OptionsValidationException
    or RpcCompare.Bindings.Carrying.ContractNotCarriedException)
{
    Console.Error.WriteLine($"rpccompare-host: {exception.Message}");
    return 1;
}
