using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using RpcCompare.Bindings.Fast.Generated;
using RpcCompare.Bindings.Telemetry;
using RpcCompare.Protobuf.Mapping;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Fast.Server;

/// <summary>
/// Every operation of every contract the host registered, built once when the server starts: a
/// client binds operations by (proto service, operation) name and calls them by the index it is
/// given, so the connection loop finds an operation with one array lookup.
/// </summary>
internal sealed class FastDispatcher
{
    private readonly IServedOperation[] _operations;
    private readonly Dictionary<(string Service, string Name), ushort> _ids;

    /// <param name="services">The host's services: its contracts and their implementations.</param>
    /// <param name="binding">The binding's name, for the log and the calls' telemetry.</param>
    /// <param name="generatedCode">False serves every contract through the reflection path (<see cref="FastBindingOptions.GeneratedCode"/>).</param>
    /// <param name="logger">Told once per contract which path serves it.</param>
    public FastDispatcher(IServiceProvider services, string binding, bool generatedCode, ILogger logger)
    {
        var operations = new List<IServedOperation>();
        foreach (var served in services.GetServices<RpcServiceDescriptor>())
        {
            var implementation = services.GetRequiredService(served.Contract);
            var generated = generatedCode ? GeneratedContracts.Find(served.Contract) : new GeneratedContracts.Lookup(null, $"generated code turned off ({nameof(FastBindingOptions.GeneratedCode)})");
            FastServerLog.ServedThrough(logger, binding, served.Contract.Name, served.Contract.Assembly.GetName().Name, generated.Contract is null ? "reflection: " + generated.Reason : "generated code");
            var model = ContractMessages.For(served.Contract).Operations;
            for (var i = 0; i < model.Count; i++)
            {
                var operation = model[i];
                var telemetry = new ServedMethod(binding, RpcSystems.Fast, operation.ServiceName, operation.Name);
                operations.Add(generated.Contract is { } code
                    ? code.Operation(i).Serve(operation, implementation, telemetry)
                    : (IServedOperation)Activator.CreateInstance(
                        typeof(ServedOperation<,,>).MakeGenericType(served.Contract, operation.Request.Type, operation.Reply.Type), operation, implementation, telemetry)!);
            }
        }

        if (operations.Count > ushort.MaxValue - FirstId)
        {
            throw new InvalidOperationException($"The fast binding serves at most {ushort.MaxValue - FirstId:#,0} operations; the host registered {operations.Count:#,0}.");
        }

        Topics = services.GetService<TopicRegistry>();
        _operations = [.. operations];
        _ids = operations.Select((o, i) => (o.Key, Id: (ushort)(i + FirstId))).ToDictionary(p => p.Key, p => p.Id);
    }

    /// <summary>The host's topics when it serves publish/subscribe (subscriptions live on their connection: <see cref="FastPushSession"/>).</summary>
    public TopicRegistry? Topics { get; }

    /// <summary>Ids below this are the protocol's own (none used yet): operation ids start here.</summary>
    public const ushort FirstId = 16;

    /// <summary>The id of a served operation; 0 when the host does not serve it.</summary>
    public ushort IdOf(string service, string operation) => _ids.GetValueOrDefault((service, operation));

    /// <summary>Whether the host serves any operation of <paramref name="service"/>.</summary>
    public bool Serves(string service) => _ids.Keys.Any(k => k.Service == service);

    public IServedOperation? Operation(ushort id) => id >= FirstId && id - FirstId < _operations.Length ? _operations[id - FirstId] : null;
}
