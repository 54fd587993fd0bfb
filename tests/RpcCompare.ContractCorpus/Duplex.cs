using System.ServiceModel;

namespace RpcCompare.ContractCorpus;

/// <summary>A duplex chat: a callback contract and a session, which only sessionful duplex bindings carry.</summary>
[ServiceContract(Namespace = "urn:corpus:chat", CallbackContract = typeof(IChatCallback), SessionMode = SessionMode.Required)]
public interface IChat
{
    [OperationContract(IsOneWay = true, IsInitiating = true)]
    void Join(string name);

    [OperationContract(IsOneWay = true)]
    void Say(string text);
}

public interface IChatCallback
{
    [OperationContract(IsOneWay = true)]
    void Heard(string who, string text);
}
