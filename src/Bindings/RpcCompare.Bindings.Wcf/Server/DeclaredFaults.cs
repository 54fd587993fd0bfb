using System.Globalization;
using CoreWCF;
using SystemServiceModel = System.ServiceModel;

namespace RpcCompare.Bindings.Wcf.Server;

/// <summary>
/// The typed faults the served contracts declare ([FaultContract]), by detail type. A service
/// written against the contract assembly throws System.ServiceModel's FaultException&lt;T&gt; (the
/// type its clients catch), but CoreWCF recognises only its own FaultException&lt;T&gt; and would
/// answer "internal error". This turns a declared one into CoreWCF's, with the same detail,
/// reason, code and action, so every WCF client receives the SOAP fault the contract promises.
/// Undeclared faults are left to CoreWCF's default handling: a generic fault without internals.
/// </summary>
internal sealed class DeclaredFaults
{
    private readonly Dictionary<Type, string> _actionByDetail;

    public DeclaredFaults(IEnumerable<RpcServiceDescriptor> served)
    {
        // One detail type may be declared by several operations; the client matches a fault by its
        // detail, so any declaring operation's action serves when the service gave none.
        _actionByDetail = served
            .SelectMany(s => s.Description.Operations)
            .SelectMany(o => o.Faults)
            .GroupBy(f => f.DetailType)
            .ToDictionary(g => g.Key, g => g.First().Action);
    }

    /// <summary>True for a System.ServiceModel FaultException&lt;T&gt; whose T a served contract declares.</summary>
    public bool IsDeclared(Exception error) => DetailTypeOf(error) is { } detail && _actionByDetail.ContainsKey(detail);

    /// <summary>CoreWCF's FaultException&lt;T&gt; for a declared fault; null for anything else.</summary>
    public FaultException? ToCoreWcf(Exception error)
    {
        if (error is not SystemServiceModel.FaultException fault || DetailTypeOf(error) is not { } detailType || !_actionByDetail.TryGetValue(detailType, out var declaredAction))
        {
            return null;
        }

        var detail = error.GetType().GetProperty(nameof(SystemServiceModel.FaultException<object>.Detail))!.GetValue(error);
        var constructor = typeof(FaultException<>).MakeGenericType(detailType)
            .GetConstructor([detailType, typeof(FaultReason), typeof(FaultCode), typeof(string)])!;
        return (FaultException)constructor.Invoke(
        [
            detail,
            new FaultReason(fault.Reason.GetMatchingTranslation(CultureInfo.CurrentCulture).Text),
            new FaultCode(fault.Code.Name, fault.Code.Namespace ?? ""),
            fault.Action ?? declaredAction,
        ]);
    }

    private static Type? DetailTypeOf(Exception error)
    {
        var type = error.GetType();
        return type.IsGenericType && type.GetGenericTypeDefinition() == typeof(SystemServiceModel.FaultException<>) ? type.GetGenericArguments()[0] : null;
    }
}
