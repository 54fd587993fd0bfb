using System.ServiceModel;

namespace RpcCompare.Description;

/// <summary>
/// One [ServiceContract] as WCF reads it: its names, its operations (those inherited from base
/// contracts first, as WCF orders them) and its callback contract's operations.
/// </summary>
public sealed class ServiceContractDescription
{
    internal ServiceContractDescription(
        Type contractType,
        string name,
        string @namespace,
        string configurationName,
        SessionMode sessionMode,
        Type? callbackContractType)
    {
        ContractType = contractType;
        Name = name;
        Namespace = @namespace;
        ConfigurationName = configurationName;
        SessionMode = sessionMode;
        CallbackContractType = callbackContractType;
    }

    public Type ContractType { get; }

    /// <summary>[ServiceContract(Name)], else the interface's name with its leading I (WCF's rule).</summary>
    public string Name { get; }

    /// <summary>[ServiceContract(Namespace)], else http://tempuri.org/.</summary>
    public string Namespace { get; }

    public string ConfigurationName { get; }

    public SessionMode SessionMode { get; }

    public Type? CallbackContractType { get; }

    /// <summary>Client-to-service operations: inherited contracts' first, then the contract's own.</summary>
    public IReadOnlyList<OperationDescription> Operations { get; internal set; } = [];

    /// <summary>Service-to-client operations of <see cref="CallbackContractType"/>.</summary>
    public IReadOnlyList<OperationDescription> CallbackOperations { get; internal set; } = [];

    /// <summary>The operation named <paramref name="name"/> (WCF's operation name, not the method's).</summary>
    public OperationDescription Operation(string name) =>
        Operations.FirstOrDefault(o => o.Name == name)
        ?? throw new KeyNotFoundException($"contract {Name} has no operation named '{name}'");

    /// <summary>The operation a contract method belongs to, in any of its forms; null for a method that is not one.</summary>
    public OperationDescription? OperationOf(System.Reflection.MethodInfo method) =>
        Operations.Concat(CallbackOperations).FirstOrDefault(o => o.Methods.Contains(method));

    public override string ToString() => $"{Name} ({ContractType.FullName})";
}
